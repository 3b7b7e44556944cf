/**
 * The claude engine of `session`: the template filled by one structured call, the current notes and
 * the conversation as input. Every item must cite messages of this transcript; an item that cites
 * none, holds a secret or is too long is left out and said, and an answer without every section is
 * refused (the local engine writes the notes then).
 */
import { findSecrets } from '../core/secrets.js';
import { callStructured, type ModelOptions } from '../llm/model.js';
import { renderTemplate } from '../store/templates.js';
import type { Transcript, TranscriptMessage } from '../claude-code/transcript.js';
import { emptyNotes, type Notes, oneLine, redactNotes, SECTION_IDS } from './notes.js';

const MAX_CONVERSATION_CHARS = 60_000;
const MAX_MESSAGE_CHARS = 2_000;
const MAX_NOTES_CHARS = 40_000;
const MAX_ITEM_CHARS = 500;
const MAX_ITEMS = 60;

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const ITEM = {
  type: 'object',
  properties: { text: { type: 'string' }, refs: { type: 'array', items: { type: 'string' }, minItems: 1 } },
  required: ['text', 'refs'],
  additionalProperties: false,
} as const;

export const NOTES_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(SECTION_IDS.map((id) => [id, { type: 'array', items: ITEM }])),
  required: [...SECTION_IDS],
  additionalProperties: false,
} as const;

/** The message as the model sees it: its words, and a line per tool call and per tool result. */
function shown(message: TranscriptMessage): string {
  const parts = [message.text, message.command ? `[the user ran ${message.command}]` : ''];
  for (const use of message.toolUses) {
    const target = use.input.command ?? use.input.file_path ?? use.input.notebook_path ?? use.input.pattern ?? '';
    parts.push(`[tool ${use.name}${typeof target === 'string' && target ? `: ${oneLine(target, 200)}` : ''}]`);
  }
  for (const result of message.toolResults ?? []) parts.push(`[result${result.isError ? ' (error)' : ''}: ${oneLine(result.text, 200)}]`);
  const text = parts.filter(Boolean).join('\n');
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

function conversation(messages: readonly TranscriptMessage[]): string {
  const parts: string[] = [];
  let size = 0;
  for (const message of [...messages].reverse()) {
    const text = shown(message);
    if (!text || message.uuid === '') continue;
    const part = `<message uuid="${message.uuid}" role="${message.role}" time="${message.timestamp ?? 'unknown'}">\n${escapeText(text)}\n</message>`;
    if (size + part.length > MAX_CONVERSATION_CHARS) break;
    parts.unshift(part);
    size += part.length;
  }
  return parts.join('\n');
}

/** A cited reference as a uuid of this transcript: the whole uuid, or a prefix of at least 8 characters naming one message. */
function refResolver(transcript: Transcript): (ref: string) => string | undefined {
  const byPrefix = new Map<string, string[]>();
  for (const uuid of transcript.positions.keys()) {
    const list = byPrefix.get(uuid.slice(0, 8));
    if (list) list.push(uuid);
    else byPrefix.set(uuid.slice(0, 8), [uuid]);
  }
  return (ref) => {
    const clean = ref.replace(/^\[?m:/, '').replace(/\]$/, '');
    if (transcript.positions.has(clean)) return clean;
    if (clean.length < 8) return undefined;
    const matches = (byPrefix.get(clean.slice(0, 8)) ?? []).filter((uuid) => uuid.startsWith(clean));
    return matches.length === 1 ? matches[0] : undefined;
  };
}

export interface ClaudeNotes {
  notes: Notes;
  /** Items left out, and why. */
  dropped: string[];
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
}

export async function notesWithClaude(transcript: Transcript, current: string, options: ModelOptions): Promise<ClaudeNotes> {
  const resolve = refResolver(transcript);
  const dropped: string[] = [];
  const user = [`Current notes:\n${current.trim() ? current.slice(0, MAX_NOTES_CHARS) : '(none yet)'}`, `Conversation (newest last):\n${conversation(transcript.messages)}`].join('\n\n');
  const result = await callStructured(
    {
      system: renderTemplate('session-system.md', {}),
      user,
      toolName: 'session_notes',
      schema: NOTES_SCHEMA,
      maxTokens: 4_000,
      validate: (answer) => {
        if (typeof answer !== 'object' || answer === null) return { ok: false, error: 'the answer is not an object' };
        const missing = SECTION_IDS.filter((id) => !Array.isArray((answer as Record<string, unknown>)[id]));
        if (missing.length > 0) return { ok: false, error: `sections missing: ${missing.join(', ')}` };
        const notes = emptyNotes();
        for (const id of SECTION_IDS) {
          for (const item of ((answer as Record<string, unknown[]>)[id] ?? []).slice(0, MAX_ITEMS)) {
            const { text, refs } = (item ?? {}) as { text?: unknown; refs?: unknown };
            if (typeof text !== 'string' || !text.trim()) continue;
            const flat = text.replace(/\s+/g, ' ').trim();
            const resolved = Array.isArray(refs) ? refs.map((r) => (typeof r === 'string' ? resolve(r) : undefined)).filter((r): r is string => r !== undefined) : [];
            if (resolved.length === 0) dropped.push(`${id}: cites no message of this transcript`);
            else if (findSecrets(flat).length > 0) dropped.push(`${id}: holds a secret`);
            else if (flat.length > MAX_ITEM_CHARS) dropped.push(`${id}: longer than ${MAX_ITEM_CHARS} characters`);
            else notes[id].push({ text: oneLine(flat, MAX_ITEM_CHARS), refs: resolved });
          }
        }
        return { ok: true, value: notes };
      },
    },
    options,
  );
  return { notes: redactNotes(result.value), dropped, usage: result.usage };
}
