/**
 * Token estimates where a count matters but no tokenizer is at hand: characters / 4, rounded up,
 * the rough rule Claude Code itself uses between API calls. English prose and code run close to it;
 * CJK text runs higher (about one token per character), so a budget in these tokens is generous there.
 */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The same estimate for a count of characters. */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}
