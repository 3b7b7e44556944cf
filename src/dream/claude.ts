import { callStructured, type ModelOptions } from '../llm/model.js';
import { renderTemplate } from '../store/templates.js';
import type { ModelProposal } from './phases.js';

const SCHEMA = {
  type: 'object',
  properties: {
    operations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: ['delete', 'remove-lines'] },
          path: { type: 'string' },
          lines: { type: 'array', items: { type: 'string' } },
          reason: { type: 'string', minLength: 10, maxLength: 300 },
        },
        required: ['op', 'path', 'reason'],
      },
    },
  },
  required: ['operations'],
};

/** A memory as the model is shown it. */
export interface ShownMemory {
  path: string;
  type: string;
  date: string;
  body: string;
}

export interface ValidatedOperations {
  valid: ModelProposal[];
  /** Operations that were not applied, each with why. */
  rejected: Array<{ operation: unknown; error: string }>;
}

/**
 * Each proposed operation is checked on its own against the memories the
 * model was shown: a known file, exact lines of it, a one-line reason.
 * Invalid ones are reported and never applied; the rest go ahead.
 */
export function validateOperations(input: unknown, shown: readonly ShownMemory[]): { ok: true; value: ValidatedOperations } | { ok: false; error: string } {
  const operations = (input as { operations?: unknown })?.operations;
  if (!Array.isArray(operations)) return { ok: false, error: '"operations" is not a list' };
  const byPath = new Map(shown.map((m) => [m.path, m]));
  const value: ValidatedOperations = { valid: [], rejected: [] };
  const seen = new Set<string>();
  for (const operation of operations as Array<Record<string, unknown>>) {
    const { op, path, lines, reason } = operation ?? {};
    const memory = typeof path === 'string' ? byPath.get(path) : undefined;
    const bodyLines = new Set(memory?.body.split(/\r?\n/) ?? []);
    let error: string | undefined;
    if (op !== 'delete' && op !== 'remove-lines') error = `unknown operation "${String(op)}"`;
    else if (!memory) error = `"${String(path)}" is not one of the memories shown`;
    else if (seen.has(memory.path)) error = `${memory.path} named twice`;
    else if (typeof reason !== 'string' || reason.trim().length < 10 || reason.length > 300 || /[\r\n]/.test(reason)) error = 'the reason must be one line of 10–300 characters';
    else if (op === 'remove-lines' && (!Array.isArray(lines) || lines.length === 0 || lines.some((l) => typeof l !== 'string' || !l.trim() || !bodyLines.has(l)))) {
      error = `remove-lines must list exact, non-blank lines of ${memory.path}`;
    }
    if (error) {
      value.rejected.push({ operation, error });
      continue;
    }
    seen.add(memory!.path);
    value.valid.push({ op: op as ModelProposal['op'], path: memory!.path, lines: op === 'remove-lines' ? (lines as string[]) : [], reason: (reason as string).trim() });
  }
  return { ok: true, value };
}

/** Ask the model which memories (or lines) are obsolete. */
export async function proposeOperations(shown: ShownMemory[], options: ModelOptions = {}) {
  const user = shown.map((m) => `<memory path="${m.path}" type="${m.type}" date="${m.date}">\n${m.body.trim()}\n</memory>`).join('\n\n');
  return callStructured(
    {
      system: renderTemplate('dream-system.md', {}),
      user,
      toolName: 'consolidate_memories',
      schema: SCHEMA,
      maxTokens: Math.min(8000, 300 + shown.length * 80),
      validate: (input) => validateOperations(input, shown),
    },
    options,
  );
}
