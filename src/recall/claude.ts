import { manifest } from '../llm/manifest.js';
import { callStructured, type ModelOptions, type StructuredResult } from '../llm/model.js';
import { renderTemplate } from '../store/templates.js';
import type { ScannedMemory } from '../store/scan.js';

const SCHEMA = {
  type: 'object',
  properties: { selected_memories: { type: 'array', items: { type: 'string' }, maxItems: 5 } },
  required: ['selected_memories'],
};

/**
 * One side query: the model picks up to `limit` memories from the manifest.
 * Names are checked against the real files: unknown ones are dropped, and an
 * answer naming nothing real (when it named something) is invalid.
 */
export async function selectWithClaude(
  input: { query: string; memories: ScannedMemory[]; recentTools: string[]; limit: number },
  options: ModelOptions,
): Promise<StructuredResult<string[]> & { unknown: string[] }> {
  const known = new Set(input.memories.map((m) => m.path));
  let unknown: string[] = [];
  const user = [`Query: ${input.query}`, input.recentTools.length ? `Tools in use right now: ${input.recentTools.join(', ')}` : '', `Memories (newest first):\n${manifest(input.memories)}`]
    .filter(Boolean)
    .join('\n\n');
  const result = await callStructured(
    {
      system: renderTemplate('recall-system.md', { limit: String(input.limit) }),
      user,
      toolName: 'select_memories',
      schema: SCHEMA,
      maxTokens: 300,
      validate: (answer) => {
        const picked = (answer as { selected_memories?: unknown })?.selected_memories;
        if (!Array.isArray(picked) || picked.some((p) => typeof p !== 'string')) return { ok: false, error: 'selected_memories is not a list of file names' };
        const names = [...new Set(picked as string[])];
        unknown = names.filter((n) => !known.has(n));
        const valid = names.filter((n) => known.has(n)).slice(0, input.limit);
        if (names.length > 0 && valid.length === 0) return { ok: false, error: `none of the selected files exist (${unknown.slice(0, 3).join(', ')})` };
        return { ok: true, value: valid };
      },
    },
    options,
  );
  return { ...result, unknown };
}
