import { MEMORY_TYPES, isMemoryType } from '../core/taxonomy.js';
import { callStructured, type ModelOptions } from '../llm/model.js';
import { renderTemplate } from '../store/templates.js';
import type { BlockProposal, RefactorPlan } from './plan.js';

const SCHEMA = {
  type: 'object',
  properties: {
    memories: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          block: { type: 'integer', minimum: 0 },
          name: { type: 'string', maxLength: 60 },
          description: { type: 'string', minLength: 20, maxLength: 150 },
          type: { type: 'string', enum: [...MEMORY_TYPES] },
        },
        required: ['block', 'name', 'description', 'type'],
      },
    },
  },
  required: ['memories'],
};

/** Check the model's answer against the blocks it was shown; anything off rejects the whole answer. */
export function validateProposals(input: unknown, blockCount: number): { ok: true; value: Map<number, BlockProposal> } | { ok: false; error: string } {
  const memories = (input as { memories?: unknown })?.memories;
  if (!Array.isArray(memories)) return { ok: false, error: '"memories" is not a list' };
  const value = new Map<number, BlockProposal>();
  for (const entry of memories as Array<Record<string, unknown>>) {
    const { block, name, description, type } = entry ?? {};
    if (typeof block !== 'number' || !Number.isInteger(block) || block < 0 || block >= blockCount) return { ok: false, error: `unknown block ${String(block)}` };
    if (value.has(block)) return { ok: false, error: `block ${block} named twice` };
    if (typeof name !== 'string' || !name.trim() || name.length > 60) return { ok: false, error: `block ${block}: bad name` };
    if (typeof description !== 'string' || description.trim().length < 20 || description.length > 150 || description.includes('\n')) {
      return { ok: false, error: `block ${block}: description must be one line of 20–150 characters` };
    }
    if (!isMemoryType(type)) return { ok: false, error: `block ${block}: type "${String(type)}" is not in the taxonomy` };
    value.set(block, { name: name.trim(), description: description.trim(), type });
  }
  return { ok: true, value };
}

/** Ask the model to name and type the inline blocks a local plan found. */
export async function proposeForBlocks(blocks: RefactorPlan['blocks'], options: ModelOptions = {}) {
  const user = blocks.map((b, i) => `<block number="${i}"${b.heading ? ` heading="${b.heading.replace(/"/g, "'")}"` : ''}>\n${b.text}\n</block>`).join('\n\n');
  return callStructured(
    {
      system: renderTemplate('refactor-system.md', {}),
      user,
      toolName: 'name_memories',
      schema: SCHEMA,
      maxTokens: Math.min(8000, 200 + blocks.length * 120),
      validate: (input) => validateProposals(input, blocks.length),
    },
    options,
  );
}
