import { callStructured, type ModelOptions } from '../llm/model.js';
import { renderTemplate } from '../store/templates.js';
import type { MagicDoc } from './find.js';

/** The answer's schema: the whole new doc, or that nothing changes. */
const SCHEMA = {
  type: 'object',
  properties: {
    unchanged: { type: 'boolean', description: 'true when the turn taught nothing the doc should hold' },
    text: { type: 'string', description: 'the complete new doc, first line and instructions line kept as they are' },
  },
  required: ['unchanged'],
  additionalProperties: false,
} as const;

export interface DocAnswer {
  /** The whole new text; undefined when the model says nothing changes. */
  text: string | undefined;
  model: string;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
}

/** Output tokens for a doc of `bytes`: room for the whole doc twice over and some (about 3 bytes a token), capped. */
const maxTokensFor = (bytes: number) => Math.min(16_000, Math.ceil((bytes * 2) / 3) + 2_048);

/**
 * One structured call per doc: the doc as it is, its instructions and the turn's new facts; the answer
 * is the whole new doc. Only the answer's shape is checked here; what it may change, `checkRewrite`.
 * The model gets no tool but the answer's, and no file system.
 */
export async function askForDoc(doc: MagicDoc, text: string, facts: string, options: ModelOptions): Promise<DocAnswer> {
  const user = [
    `The doc, ${doc.path}:`,
    `<doc>\n${text}\n</doc>`,
    doc.instructions ? `Its instructions: ${doc.instructions}` : 'It has no instructions line: keep it to what its title names.',
    `The new facts of the turn that read it:\n${facts || '(none)'}`,
  ].join('\n\n');
  const result = await callStructured(
    {
      system: renderTemplate('docs-system.md', {}),
      user,
      toolName: 'magic_doc',
      schema: SCHEMA,
      maxTokens: maxTokensFor(Buffer.byteLength(text)),
      validate: (answer) => {
        const value = answer as { unchanged?: unknown; text?: unknown } | null;
        if (typeof value !== 'object' || value === null) return { ok: false, error: 'the answer is not an object' };
        if (value.unchanged === true) return { ok: true, value: undefined };
        if (typeof value.text !== 'string') return { ok: false, error: 'text is not a string' };
        return { ok: true, value: value.text };
      },
    },
    options,
  );
  return { text: result.value, model: result.model, usage: result.usage };
}
