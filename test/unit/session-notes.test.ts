import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseTranscriptText } from '../../src/claude-code/transcript.js';
import { localNotes, REF, refNamer, renderNotes, SECTIONS } from '../../src/session/notes.js';
import { dueVerdict } from '../../src/session/session.js';
import { repoRoot } from '../helpers/run-cli.js';

/** Every real transcript vendored in the repository (main sessions and subagent files alike). */
function realTranscripts(): string[] {
  const roots = ['test/fixtures/shared/transcripts', 'test/fixtures/shared/claude-code-2.1.197', 'test/fixtures/claude-code-2.1.332'].map((r) => path.join(repoRoot, r));
  return roots.flatMap((root) =>
    fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => path.join(root, f)),
  );
}

/** Every line uuid of a transcript, read with nothing but JSON.parse: what a reference must resolve to. */
function lineUuids(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        const uuid = (JSON.parse(l) as { uuid?: unknown }).uuid;
        return typeof uuid === 'string' ? [uuid] : [];
      } catch {
        return [];
      }
    });
}

/** The uuids a reference names: the one it spells whole, else those it is a prefix of (characters outside [A-Za-z0-9_-] written as _). */
function resolve(uuids: string[], ref: string): string[] {
  const safe = (uuid: string) => uuid.replace(/[^A-Za-z0-9_-]/g, '_');
  const whole = uuids.filter((uuid) => safe(uuid) === ref);
  return whole.length > 0 ? whole : uuids.filter((uuid) => safe(uuid).startsWith(ref));
}

const HEADINGS = new Set(SECTIONS.map((s) => `# ${s.heading}`));
const ABOUT = new Set(SECTIONS.map((s) => `_${s.about}_`));

/** The lines of notes that are not the template's (its comment, headings, descriptions, blank lines). */
const contentLines = (notes: string) => notes.split('\n').filter((line, i) => !(i === 0 && line.startsWith('<!--')) && line.trim() !== '' && !HEADINGS.has(line) && !ABOUT.has(line));

function notesOf(file: string, maxTokens = 6_000) {
  const text = fs.readFileSync(file, 'utf8');
  const transcript = parseTranscriptText(text, { details: true });
  return { text, transcript, rendered: renderNotes(localNotes(transcript), { sessionId: path.basename(file, '.jsonl'), maxTokens, ref: refNamer(transcript.positions.keys()) }) };
}

describe('session notes on the real transcripts', () => {
  const files = realTranscripts();

  test('there are real transcripts to check', () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
  });

  test.each(files.map((f) => [path.relative(repoRoot, f), f]))('%s: every line cites messages of the transcript', (_name, file) => {
    const { text, rendered } = notesOf(file);
    const uuids = [...new Set(lineUuids(text))];
    const lines = contentLines(rendered.text);
    for (const line of lines) {
      expect(line, line).toMatch(/^- .*\S \[m:[A-Za-z0-9_-]+\](?:\[m:[A-Za-z0-9_-]+\])*$/);
      for (const [, ref] of line.matchAll(REF)) {
        // The reference is a whole uuid of the transcript, or a prefix that names exactly one of them.
        expect(resolve(uuids, ref!), `${ref} in ${line}`).toHaveLength(1);
      }
    }
    expect(rendered.tokens).toBeLessThanOrEqual(6_000);
  });

  test('the notes of a real session say what its tools recorded', () => {
    const { rendered } = notesOf(path.join(repoRoot, 'test/fixtures/shared/transcripts/d-kimuson+claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'));
    // The slash command the user ran is the task; the Edit refused before a Read, then done after it, is an error fixed.
    expect(rendered.text).toContain('Request: "/orchestrator @CLAUDE.md を最新の状態にアップデートしてください"');
    expect(rendered.text).toMatch(
      /Edit \/path\/to\/Demo\/CLAUDE\.md failed: File has not been read yet\. Read it first before writing to it\.; then succeeded after Read \/path\/to\/Demo\/CLAUDE\.md \[m:\w+\]\[m:\w+\]/,
    );
    expect(rendered.text).toMatch(/- \/path\/to\/Demo\/CLAUDE\.md \(edited 1×, read 1×\) \[m:\w+\]/);
  });

  test.each(files.map((f) => [path.relative(repoRoot, f), f]))('%s: within a small budget, still traceable', (_name, file) => {
    const { text, rendered } = notesOf(file, 500);
    expect(rendered.tokens).toBeLessThanOrEqual(500);
    const uuids = [...new Set(lineUuids(text))];
    for (const line of contentLines(rendered.text)) for (const [, ref] of line.matchAll(REF)) expect(resolve(uuids, ref!)).toHaveLength(1);
  });
});

/** A long session made from a real one: its main-conversation lines repeated with fresh uuids, chained. */
function grown(file: string, times: number): string {
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.isSidechain !== true);
  const out: string[] = [];
  for (let i = 0; i < times; i++) {
    for (const line of lines) {
      const copy = { ...line } as Record<string, unknown>;
      if (typeof copy.uuid === 'string') copy.uuid = `r${String(i).padStart(4, '0')}-${copy.uuid}`;
      if (typeof copy.parentUuid === 'string') copy.parentUuid = `r${String(i).padStart(4, '0')}-${copy.parentUuid}`;
      const message = copy.message as { id?: string } | undefined;
      if (message && typeof message.id === 'string') copy.message = { ...message, id: `${message.id}-${i}` };
      out.push(JSON.stringify(copy));
    }
  }
  return `${out.join('\n')}\n`;
}

describe('the budget', () => {
  const source = path.join(repoRoot, 'test/fixtures/shared/transcripts/daaain+claude-code-log/edge_cases.jsonl');

  test('the oldest worklog lines fold first, and the fold still cites the first and last turn it stands for', () => {
    const once = localNotes(parseTranscriptText(grown(source, 1), { details: true })).worklog.length;
    const text = grown(source, 200);
    const transcript = parseTranscriptText(text, { details: true });
    const ref = refNamer(transcript.positions.keys());
    const notes = localNotes(transcript);
    expect(notes.worklog.length).toBe(200 * once);
    const rendered = renderNotes(notes, { sessionId: 's', maxTokens: 2_000, ref });
    expect(rendered.tokens).toBeLessThanOrEqual(2_000);
    expect(rendered.folded.worklog).toBeGreaterThan(0);
    expect(Object.keys(rendered.folded)).toEqual(['worklog']);
    const fold = rendered.text.split('\n').find((l) => l.includes('earlier turns folded'))!;
    expect(fold).toMatch(
      new RegExp(
        `^- ${rendered.folded.worklog} earlier turns folded to keep these notes within budget \\[m:${ref(notes.worklog[0]!.refs[0]!)}\\]\\[m:${ref(notes.worklog[rendered.folded.worklog! - 1]!.refs.at(-1)!)}\\]$`,
      ),
    );
    // The newest turn is kept.
    expect(rendered.text).toContain(`[m:${ref(notes.worklog.at(-1)!.refs[0]!)}]`);
  });

  test('a secret the user pasted is not in the notes', () => {
    const key = `${'ghp_'}a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8`;
    const lines = [
      { type: 'user', uuid: 'u1-0000-0000', sessionId: 's', timestamp: '2026-03-02T10:00:00Z', message: { role: 'user', content: `deploy with the key ${key} and tell me when it is done please` } },
      { type: 'assistant', uuid: 'a1-0000-0000', sessionId: 's', timestamp: '2026-03-02T10:00:05Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: `Using ${key} now.` }] } },
    ];
    const transcript = parseTranscriptText(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, { details: true });
    const rendered = renderNotes(localNotes(transcript), { sessionId: 's', maxTokens: 6_000, ref: refNamer(transcript.positions.keys()) });
    expect(rendered.text).not.toContain(key);
    expect(rendered.text).toContain('[REDACTED]');
  });
});

describe('the thresholds', () => {
  const t = { initTokens: 10_000, updateTokens: 5_000, toolCalls: 3 };
  test('first notes at 10k tokens', () => {
    expect(dueVerdict(null, { tokens: 9_999, toolCallsSince: 50, lastTurnHadToolCalls: false }, t).due).toBe(false);
    expect(dueVerdict(null, { tokens: 10_000, toolCallsSince: 0, lastTurnHadToolCalls: true }, t).due).toBe(true);
  });
  test('then 5k more, with 3 tool calls since or a last turn without any', () => {
    const written = { cursor: 'x', tokens: 12_000, transcriptBytes: 1, at: '' };
    expect(dueVerdict(written, { tokens: 16_999, toolCallsSince: 9, lastTurnHadToolCalls: false }, t).due).toBe(false);
    expect(dueVerdict(written, { tokens: 17_000, toolCallsSince: 3, lastTurnHadToolCalls: true }, t).due).toBe(true);
    expect(dueVerdict(written, { tokens: 17_000, toolCallsSince: 2, lastTurnHadToolCalls: true }, t).due).toBe(false);
    expect(dueVerdict(written, { tokens: 17_000, toolCallsSince: 2, lastTurnHadToolCalls: false }, t).due).toBe(true);
  });
});

describe('the transcript parser, with details', () => {
  const line = (value: Record<string, unknown>) => JSON.stringify({ sessionId: 's', timestamp: '2026-03-02T10:00:00Z', ...value });
  const text = [
    line({
      type: 'user',
      uuid: 'c1',
      message: { role: 'user', content: '<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>src/app.ts</command-args>' },
    }),
    line({ type: 'user', uuid: 'm1', isMeta: true, message: { role: 'user', content: [{ type: 'text', text: 'expanded command prompt' }] } }),
    line({ type: 'assistant', uuid: 'a1', message: { id: 'x1', role: 'assistant', content: [{ type: 'text', text: 'Running it.' }] } }),
    line({ type: 'assistant', uuid: 'a2', message: { id: 'x1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test', description: 'run' } }] } }),
    line({ type: 'user', uuid: 'r1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'Exit code 1\nFAIL src/app.test.ts' }] } }),
  ].join('\n');

  test('a slash command is kept with its arguments; tool results with their error flag; sizes counted', () => {
    const parsed = parseTranscriptText(`${text}\n`, { details: true });
    const [command, meta, assistant, result] = parsed.messages;
    expect(command).toMatchObject({ uuid: 'c1', isHumanPrompt: false, command: '/review src/app.ts' });
    expect(meta!.command).toBeUndefined();
    expect(assistant).toMatchObject({ uuid: 'a2', text: 'Running it.', chars: 'Running it.'.length + 'Bash'.length + 'npm test'.length + 'run'.length });
    expect(result).toMatchObject({ uuid: 'r1', toolResults: [{ toolUseId: 't1', isError: true, text: 'Exit code 1\nFAIL src/app.test.ts' }], chars: 'Exit code 1\nFAIL src/app.test.ts'.length });
    // Without details nothing more is held.
    const plain = parseTranscriptText(`${text}\n`);
    expect(plain.messages.some((m) => m.toolResults || m.chars !== undefined || m.command)).toBe(false);
  });

  test('the notes say the command failed with its exit code, and the task is the slash command', () => {
    const transcript = parseTranscriptText(`${text}\n`, { details: true });
    const rendered = renderNotes(localNotes(transcript), { sessionId: 's', maxTokens: 6_000, ref: refNamer(transcript.positions.keys()) });
    expect(rendered.text).toContain('- `npm test` → exit 1 [m:r1]');
    expect(rendered.text).toContain('- Bash `npm test` failed: FAIL src/app.test.ts; not yet retried with success [m:r1]');
    expect(rendered.text).toContain('- Request: "/review src/app.ts" [m:c1]');
  });
});

describe('corrections', () => {
  const notesFor = (prompts: string[]) => {
    const lines = prompts.map((content, i) => JSON.stringify({ type: 'user', uuid: `u${i}`, sessionId: 's', timestamp: '2026-03-02T10:00:00Z', message: { role: 'user', content } }));
    const transcript = parseTranscriptText(`${lines.join('\n')}\n`, { details: true });
    return localNotes(transcript).errors.map((e) => e.text);
  };
  test('a prompt that says the agent went wrong is quoted; a new instruction is not', () => {
    expect(
      notesFor([
        'No, use pnpm, not npm, in this repository',
        "that's not what I asked for",
        'you forgot the migration file',
        "don't forget to add a test for the parser",
        'Actually, can you also update the changelog?',
        'Please rename the module',
      ]),
    ).toEqual(['User correction: "No, use pnpm, not npm, in this repository"', 'User correction: "that\'s not what I asked for"', 'User correction: "you forgot the migration file"']);
  });
});
