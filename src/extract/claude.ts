import path from 'node:path';
import { manifest } from '../llm/manifest.js';
import { callStructured, type ModelOptions } from '../llm/model.js';
import type { ScannedMemory } from '../store/scan.js';
import { renderTemplate } from '../store/templates.js';
import { checkOperations, OPERATIONS_SCHEMA, type MemoryOperation, type RejectedOperation } from './operations.js';
import { instructionWrites } from './instructions.js';
import type { TranscriptMessage } from '../claude-code/transcript.js';

/** Most conversation text sent in one call: the newest messages are kept. */
const MAX_CONVERSATION_CHARS = 60_000;
const MAX_MESSAGE_CHARS = 4_000;
const MAX_WRITE_CHARS = 500;

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * The new messages as the model sees them: who, when, uuid, what was said. Tool traffic is left out,
 * except what the agent wrote into an instruction file (CLAUDE.md…), which needs no memory.
 */
function conversation(messages: readonly TranscriptMessage[]): string {
  const parts: string[] = [];
  let size = 0;
  for (const message of [...messages].reverse()) {
    if (message.role === 'user' && !message.isHumanPrompt) continue;
    const wrote = instructionWrites(message).map((w) => `[wrote ${path.basename(w.file)}: ${shorten(w.text, MAX_WRITE_CHARS)}]`);
    const text = [message.text, ...wrote].filter(Boolean).join('\n');
    if (!text) continue;
    const body = text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
    const part = `<message uuid="${message.uuid}" role="${message.role}" time="${message.timestamp ?? 'unknown'}">\n${escapeText(body)}\n</message>`;
    if (size + part.length > MAX_CONVERSATION_CHARS) break;
    parts.unshift(part);
    size += part.length;
  }
  return parts.join('\n');
}

export interface ClaudeProposal {
  valid: MemoryOperation[];
  rejected: RejectedOperation[];
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
  model: string;
}

/** One structured call: the model proposes operations over the manifest; each is checked before use. */
export async function proposeWithClaude(messages: readonly TranscriptMessage[], memories: ScannedMemory[], anchor: Date, options: ModelOptions): Promise<ClaudeProposal> {
  const known = new Set(memories.map((m) => m.path));
  const user = [`Existing memories (the manifest):\n${manifest(memories) || '(none)'}`, `New messages (today is ${anchor.toISOString().slice(0, 10)}):\n${conversation(messages)}`].join('\n\n');
  let checked: { valid: MemoryOperation[]; rejected: RejectedOperation[] } = { valid: [], rejected: [] };
  const result = await callStructured(
    {
      system: renderTemplate('extract-system.md', {}),
      user,
      toolName: 'memory_operations',
      schema: OPERATIONS_SCHEMA,
      maxTokens: 4_000,
      validate: (answer) => {
        const operations = (answer as { operations?: unknown })?.operations;
        if (!Array.isArray(operations)) return { ok: false, error: 'operations is not a list' };
        checked = checkOperations(operations, known, anchor);
        return { ok: true, value: checked };
      },
    },
    options,
  );
  return { ...checked, usage: result.usage, model: result.model };
}
