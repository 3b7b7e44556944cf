import type { ScannedMemory } from '../store/scan.js';

/**
 * The memories as a model is shown them, one line each: `- [type] relpath (ISO mtime): description`,
 * in the order given (callers pass newest first). Recall's selection and extract's proposals both
 * send it, so the model reads the same manifest in either call.
 */
export function manifest(memories: readonly ScannedMemory[]): string {
  return memories.map((m) => `- [${m.type ?? 'unknown'}] ${m.path} (${new Date(m.mtimeMs).toISOString()}): ${m.description ?? ''}`).join('\n');
}
