import type { RecordedRequest } from './fake-model-server.js';

/** Every string inside a request body, joined: what the model was actually given. */
export function requestStrings(request: RecordedRequest): string {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(request.body);
  return out.join('\n');
}

const LOADED = /Contents of (.+?)\/MEMORY\.md \(user's auto-memory[^\n]*\n\n/;

/**
 * Which memory index the agent loaded and what it contained, from the first
 * conversation request that carries one (the title call does not).
 */
export function loadedMemory(requests: RecordedRequest[]): { dir: string; text: string; request: string } | undefined {
  for (const request of requests) {
    const text = requestStrings(request);
    const match = LOADED.exec(text);
    if (match) return { dir: match[1]!, text: text.slice(match.index + match[0].length), request: text };
  }
  return undefined;
}

/**
 * The index text a Claude Code request carried, exactly: after its "Contents of …/MEMORY.md" line,
 * up to the next part of the prompt (2.1.197 follows it with `# currentDate`, later releases close
 * the reminder).
 */
export function loadedIndexText(requests: RecordedRequest[]): string | undefined {
  const loaded = loadedMemory(requests);
  if (!loaded) return undefined;
  const ends = ['\n# currentDate\n', '\n</system-reminder>'].map((end) => loaded.text.indexOf(end)).filter((at) => at >= 0);
  return ends.length ? loaded.text.slice(0, Math.min(...ends)) : loaded.text;
}
