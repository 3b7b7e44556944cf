/** `text` as a regular expression that matches it literally (valid with or without the `u` flag). Pure. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
