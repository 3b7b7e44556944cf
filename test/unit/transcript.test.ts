import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readTranscript, readTranscriptStream } from '../../src/claude-code/read-transcript.js';
import { humanText, messagesAfter, parseTranscriptText, toolUsesWritingInto, type Transcript } from '../../src/claude-code/transcript.js';
import { sharedFixtures } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Expected counts per fixture, derived independently of this code (a Python script over the
 * same files), by these rules: lines = non-blank lines; malformed = not JSON, not an object, no
 * string `type`, or a user/assistant line without message.content (string or array); byType =
 * the other lines by type; sidechain = isSidechain lines and every line of agent-*.jsonl /
 * subagents/ files; userPrompts = main-conversation user lines that are not isMeta /
 * isCompactSummary / tool results, not machine-written (<command-…>, <local-command-…>,
 * <bash-…>, <task-notification>, the local-command caveat, interruption markers) and not empty
 * once <system-reminder> and hook output are removed; assistantMessages = distinct message.id;
 * toolUses = distinct tool_use blocks of those messages.
 */
const EXPECTED: Record<string, Pick<Transcript['counts'], 'lines' | 'malformed' | 'sidechain' | 'userPrompts' | 'assistantMessages' | 'toolUses' | 'byType'>> = {
  'claude-code-2.1.197/session-writes-memory.jsonl': {
    lines: 11,
    malformed: 0,
    sidechain: 0,
    userPrompts: 1,
    assistantMessages: 2,
    toolUses: 1,
    byType: { 'ai-title': 1, assistant: 3, attachment: 2, 'last-prompt': 1, 'queue-operation': 2, user: 2 },
  },
  'transcripts/d-kimuson+claude-code-viewer/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl': {
    lines: 29,
    malformed: 0,
    sidechain: 0,
    userPrompts: 0,
    assistantMessages: 7,
    toolUses: 12,
    byType: { assistant: 15, user: 14 },
  },
  'transcripts/d-kimuson+claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl': {
    lines: 53,
    malformed: 0,
    sidechain: 22,
    userPrompts: 0,
    assistantMessages: 10,
    toolUses: 13,
    byType: { assistant: 28, user: 25 },
  },
  'transcripts/d-kimuson+claude-code-viewer/agent-test-hash-123.jsonl': { lines: 2, malformed: 0, sidechain: 2, userPrompts: 0, assistantMessages: 0, toolUses: 0, byType: { assistant: 1, user: 1 } },
  'transcripts/d-kimuson+claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl': {
    lines: 438,
    malformed: 0,
    sidechain: 405,
    userPrompts: 1,
    assistantMessages: 9,
    toolUses: 11,
    byType: { assistant: 262, summary: 1, user: 175 },
  },
  'transcripts/daaain+claude-code-log/dag_compact_after_rewind.jsonl': {
    lines: 12,
    malformed: 0,
    sidechain: 0,
    userPrompts: 5,
    assistantMessages: 5,
    toolUses: 0,
    byType: { assistant: 5, system: 1, user: 6 },
  },
  'transcripts/daaain+claude-code-log/edge_cases.jsonl': { lines: 19, malformed: 6, sidechain: 0, userPrompts: 3, assistantMessages: 4, toolUses: 3, byType: { assistant: 4, summary: 1, user: 8 } },
  'transcripts/daaain+claude-code-log/representative_messages.jsonl': {
    lines: 12,
    malformed: 0,
    sidechain: 0,
    userPrompts: 4,
    assistantMessages: 5,
    toolUses: 2,
    byType: { assistant: 5, summary: 1, user: 6 },
  },
  'transcripts/daaain+claude-code-log/session_b.jsonl': { lines: 3, malformed: 0, sidechain: 0, userPrompts: 2, assistantMessages: 1, toolUses: 0, byType: { assistant: 1, user: 2 } },
  'transcripts/daaain+claude-code-log/sidechain_integrated.jsonl': { lines: 6, malformed: 0, sidechain: 3, userPrompts: 0, assistantMessages: 2, toolUses: 1, byType: { assistant: 4, user: 2 } },
  'transcripts/daaain+claude-code-log/todowrite_examples.jsonl': {
    lines: 12,
    malformed: 0,
    sidechain: 0,
    userPrompts: 2,
    assistantMessages: 6,
    toolUses: 3,
    byType: { assistant: 6, summary: 1, user: 5 },
  },
  'transcripts/neilberkman+ccrider/agent-session.jsonl': { lines: 2, malformed: 0, sidechain: 2, userPrompts: 0, assistantMessages: 0, toolUses: 0, byType: { assistant: 1, user: 1 } },
  'transcripts/neilberkman+ccrider/no-summary.jsonl': { lines: 2, malformed: 0, sidechain: 0, userPrompts: 1, assistantMessages: 1, toolUses: 0, byType: { assistant: 1, user: 1 } },
  'transcripts/neilberkman+ccrider/sample.jsonl': { lines: 3, malformed: 0, sidechain: 0, userPrompts: 1, assistantMessages: 1, toolUses: 0, byType: { assistant: 1, summary: 1, user: 1 } },
};

function fixtureTranscripts(): string[] {
  return ['transcripts', 'claude-code-2.1.197'].flatMap((dir) =>
    fs
      .readdirSync(path.join(sharedFixtures, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.jsonl'))
      .map((file) => `${dir}/${file}`),
  );
}

const SESSION = 's1';
let uuidCounter = 0;

function user(content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'user', uuid: `u${++uuidCounter}`, parentUuid: null, sessionId: SESSION, timestamp: '2026-03-01T10:00:00.000Z', isSidechain: false, message: { role: 'user', content }, ...extra };
}

function assistant(id: string, content: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'assistant',
    uuid: `a${++uuidCounter}`,
    parentUuid: null,
    sessionId: SESSION,
    timestamp: '2026-03-01T10:00:01.000Z',
    isSidechain: false,
    message: { id, role: 'assistant', content },
    ...extra,
  };
}

function jsonl(...lines: unknown[]): string {
  return lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
}

async function* chunksOf(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.isBuffer(part) ? part : Buffer.from(part);
}

describe('every shared fixture transcript', () => {
  test('has expected counts (a new fixture must be counted here)', () => {
    expect(fixtureTranscripts().sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  test.each(Object.entries(EXPECTED))('%s', async (file, expected) => {
    const { counts } = await readTranscript(path.join(sharedFixtures, file));
    expect(counts).toMatchObject(expected);
    const byType = Object.values(counts.byType).reduce((sum, n) => sum + n, 0);
    expect(counts.lines).toBe(counts.malformed + byType);
  });

  test('streamed and in-memory parsing agree', async () => {
    for (const file of Object.keys(EXPECTED)) {
      const full = path.join(sharedFixtures, file);
      const streamed = await readTranscript(full, { subagent: false });
      const whole = parseTranscriptText(fs.readFileSync(full, 'utf8'));
      expect(streamed.messages).toEqual(whole.messages);
      expect(streamed.counts).toEqual(whole.counts);
    }
  });

  test('what the human said, in the real Claude Code 2.1.197 session', async () => {
    const t = await readTranscript(path.join(sharedFixtures, 'claude-code-2.1.197/session-writes-memory.jsonl'));
    expect(t.messages.filter((m) => m.isHumanPrompt).map((m) => [m.text, m.sessionId, m.timestamp])).toEqual([
      ['Please remember: never mock the database in integration tests', '810bda2c-bc39-4713-b54c-dd50004e8994', '2026-11-30T07:19:53.083Z'],
    ]);
    // "Saving that." and the Write are one API message written as two lines
    const first = t.messages.find((m) => m.role === 'assistant')!;
    expect(first.text).toBe('Saving that.');
    expect(first.toolUses.map((use) => use.name)).toEqual(['Write']);
  });
});

describe('message content', () => {
  test('string and text-block content are both what the user said; images and thinking are not text', () => {
    const t = parseTranscriptText(
      jsonl(
        user('plain string prompt'),
        user([
          { type: 'text', text: 'block prompt' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        ]),
        user([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }]),
        assistant('m1', [
          { type: 'thinking', thinking: 'private reasoning', signature: 'x' },
          { type: 'text', text: 'visible answer' },
        ]),
      ),
    );
    expect(t.messages.map((m) => [m.role, m.text, m.isHumanPrompt])).toEqual([
      ['user', 'plain string prompt', true],
      ['user', 'block prompt', true],
      ['user', '', false],
      ['assistant', 'visible answer', false],
    ]);
  });

  test('one API message split over several lines sharing message.id is joined, even with a tool result between', () => {
    const parts = [
      assistant('msg_split', [{ type: 'text', text: 'Let me look.' }], { uuid: 'p1', parentUuid: 'q' }),
      assistant('msg_split', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a' } }], { uuid: 'p2', parentUuid: 'p1' }),
      user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file text' }], { uuid: 'r1', parentUuid: 'p2', toolUseResult: { type: 'text' } }),
      assistant('msg_split', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a' } }], { uuid: 'p2-again', parentUuid: 'p2' }),
      assistant('msg_split', [{ type: 'text', text: 'Found it.' }], { uuid: 'p3', parentUuid: 'r1' }),
      assistant('msg_other', [{ type: 'text', text: 'Next.' }], { uuid: 'p4', parentUuid: 'p3' }),
    ];
    const t = parseTranscriptText(jsonl(...parts));
    expect(t.counts.assistantMessages).toBe(2);
    expect(t.counts.toolUses).toBe(1);
    const [joined, toolResult, next] = t.messages;
    expect(joined).toMatchObject({ uuid: 'p3', parentUuid: 'q', text: 'Let me look.\nFound it.', toolUses: [{ id: 'toolu_1', name: 'Read', input: { file_path: '/a' } }] });
    expect(toolResult).toMatchObject({ role: 'user', uuid: 'r1', isHumanPrompt: false, text: '' });
    expect(next!.text).toBe('Next.');
  });

  test('a line repeated with the same uuid is read once', () => {
    const line = user('only once', { uuid: 'same' });
    const t = parseTranscriptText(jsonl(line, line));
    expect(t.messages).toHaveLength(1);
    expect(t.counts).toMatchObject({ duplicates: 1, userPrompts: 1, byType: { user: 2 } });
  });

  test('sidechain lines and subagent files are not the main conversation', async () => {
    const lines = jsonl(user('main prompt'), user('subagent task', { isSidechain: true }), assistant('m', [{ type: 'text', text: 'sub' }], { isSidechain: true }));
    const t = parseTranscriptText(lines);
    expect(t.messages.map((m) => m.text)).toEqual(['main prompt']);
    expect(t.counts.sidechain).toBe(2);

    const dir = tempDir();
    const subagentFiles = [path.join(dir, 'agent-a1b2.jsonl'), path.join(dir, 'session-1', 'subagents', 'agent-x.jsonl')];
    for (const file of subagentFiles) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, jsonl(user('looks like a main prompt')));
      const sub = await readTranscript(file);
      expect(sub.messages).toEqual([]);
      expect(sub.counts).toMatchObject({ lines: 1, sidechain: 1, userPrompts: 0 });
    }
  });

  test('isMeta lines, command and hook wrappers are not what the user said', () => {
    const t = parseTranscriptText(
      jsonl(
        user('Caveat: The messages below were generated by the user while running local commands. DO NOT respond.', { isMeta: true }),
        user('<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>'),
        user('<local-command-stdout>Set model to opus</local-command-stdout>'),
        user('<bash-input>ls</bash-input>'),
        user('<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>\nRead the output file to retrieve the result: /tmp/x'),
        user([{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
        user('This session is being continued from a previous conversation that ran out of context.', { isCompactSummary: true }),
        user('expanded skill prompt', { isMeta: true }),
        user('scheduled wake-up', { origin: { kind: 'scheduled' } }),
        user([
          { type: 'text', text: 'fix the flaky test' },
          { type: 'text', text: '<system-reminder>The user opened file x.ts</system-reminder>' },
        ]),
        user('<user-prompt-submit-hook>recalled: 3 memories</user-prompt-submit-hook>\nwhy is CI red?'),
        user('<user-memory-input>always use pnpm</user-memory-input>'),
        { type: 'attachment', uuid: 'h1', isSidechain: false, attachment: { type: 'hook_success', hookEvent: 'UserPromptSubmit', content: 'hook says hi' } },
        { type: 'attachment', uuid: 'q1', isSidechain: false, sessionId: SESSION, attachment: { type: 'queued_command', prompt: 'also update the changelog', commandMode: 'prompt' } },
        { type: 'attachment', uuid: 'q2', isSidechain: false, attachment: { type: 'queued_command', prompt: 'a task finished', commandMode: 'task-notification' } },
      ),
    );
    expect(t.messages.filter((m) => m.isHumanPrompt).map((m) => m.text)).toEqual(['fix the flaky test', 'why is CI red?', 'always use pnpm', 'also update the changelog']);
    expect(t.counts.userPrompts).toBe(4);
    expect(t.counts.byType).toEqual({ user: 12, attachment: 3 });
  });

  test('every line type is read; unknown types are counted and skipped', () => {
    const t = parseTranscriptText(
      jsonl(
        { type: 'summary', summary: 'Fixing CI', leafUuid: 'x' },
        { type: 'file-history-snapshot', messageId: 'u', snapshot: {} },
        { type: 'queue-operation', operation: 'enqueue', content: 'hi' },
        { type: 'progress', uuid: 'pg', data: { type: 'agent_progress', message: { type: 'user', message: { role: 'user', content: 'subagent prompt' } } } },
        { type: 'last-prompt', lastPrompt: 'hi' },
        { type: 'ai-title', aiTitle: 'Fixing CI' },
        { type: 'custom-title', customTitle: 'x' },
        { type: 'some-future-type', anything: true },
        user('hi'),
      ),
    );
    expect(t.messages.map((m) => m.text)).toEqual(['hi']);
    expect(t.summaries).toEqual(['Fixing CI']);
    expect(t.counts.byType).toEqual({ summary: 1, 'file-history-snapshot': 1, 'queue-operation': 1, progress: 1, 'last-prompt': 1, 'ai-title': 1, 'custom-title': 1, 'some-future-type': 1, user: 1 });
  });

  test('humanText keeps the words around injected context', () => {
    expect(humanText('before <system-reminder>noise</system-reminder> after')).toBe('before  after');
    expect(humanText('  <command-name>/clear</command-name>')).toBe('');
  });
});

describe('malformed input is counted, never fatal', () => {
  test('not JSON, not an object, no type, no message', () => {
    const t = parseTranscriptText(jsonl('{oops', '[1,2]', '"text"', '{"no":"type"}', '{"type":"user","message":"not an object"}', '{"type":"assistant","message":{"id":"m"}}', user('still read')));
    expect(t.counts).toMatchObject({ lines: 7, malformed: 6, userPrompts: 1 });
    expect(t.malformedLines.map((m) => m.reason)).toEqual(['not-json', 'not-an-object', 'not-an-object', 'no-type', 'no-message']);
  });

  test('a truncated last line (being written right now) is counted and flagged', async () => {
    const whole = JSON.stringify(user('first'));
    const cut = JSON.stringify(user('second')).slice(0, 40);
    const t = await readTranscriptStream(chunksOf(`${whole}\n`, cut));
    expect(t.messages.map((m) => m.text)).toEqual(['first']);
    expect(t.truncatedLastLine).toBe(true);
    expect(t.malformedLines).toEqual([{ line: 2, reason: 'truncated' }]);
    // the same bytes with a newline: a broken line, not one in progress
    const ended = await readTranscriptStream(chunksOf(`${whole}\n${cut}\n`));
    expect(ended.truncatedLastLine).toBe(false);
    expect(ended.malformedLines).toEqual([{ line: 2, reason: 'not-json' }]);
  });

  test('binary garbage', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'garbage.jsonl');
    fs.writeFileSync(file, Buffer.concat([crypto.randomBytes(200_000), Buffer.from([0, 0xff, 0xfe, 0x0a])]));
    const t = await readTranscript(file);
    expect(t.messages).toEqual([]);
    expect(t.counts.lines).toBeGreaterThan(0);
    expect(t.counts.malformed).toBe(t.counts.lines);
  });

  test('an empty file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'empty.jsonl');
    fs.writeFileSync(file, '');
    const t = await readTranscript(file);
    expect(t).toMatchObject({ messages: [], truncatedLastLine: false, lastCompactBoundary: null });
    expect(t.counts).toMatchObject({ lines: 0, malformed: 0, byType: {} });
  });

  test('a JSON array instead of JSONL', () => {
    const records = [user('one'), user('two')];
    const oneLine = parseTranscriptText(JSON.stringify(records));
    expect(oneLine.counts).toMatchObject({ lines: 1, malformed: 1, userPrompts: 0 });
    expect(oneLine.malformedLines).toEqual([{ line: 1, reason: 'not-an-object' }]);
    const pretty = parseTranscriptText(JSON.stringify(records, null, 2));
    expect(pretty.messages).toEqual([]);
    expect(pretty.counts.malformed).toBe(pretty.counts.lines);
  });

  test('a 50 MB single line is skipped as it streams past (too long), and the next line is read', async () => {
    const megabyte = 1024 * 1024;
    async function* fiftyMegabyteLine(): AsyncGenerator<Buffer> {
      yield Buffer.from('{"type":"user","message":{"role":"user","content":"');
      for (let i = 0; i < 50; i++) yield Buffer.alloc(megabyte, 'x');
      yield Buffer.from(`"}}\n${JSON.stringify(user('after the big line'))}\n`);
    }
    const t = await readTranscriptStream(fiftyMegabyteLine());
    expect(t.malformedLines).toEqual([{ line: 1, reason: 'too-long' }]);
    expect(t.messages.map((m) => m.text)).toEqual(['after the big line']);
    expect(t.counts).toMatchObject({ lines: 2, malformed: 1 });
  });

  test('the line limit applies across chunk boundaries; a line at the limit is kept', async () => {
    const line = JSON.stringify(user('exactly at the limit'));
    const bytes = Buffer.byteLength(line);
    const split = [line.slice(0, 10), line.slice(10, 30), `${line.slice(30)}\n`];
    const kept = await readTranscriptStream(chunksOf(...split), { maxLineBytes: bytes });
    expect(kept.counts.malformed).toBe(0);
    const skipped = await readTranscriptStream(chunksOf(...split, 'x'.repeat(5), '\n', `${line}\n`), { maxLineBytes: bytes - 1 });
    expect(skipped.malformedLines).toEqual([
      { line: 1, reason: 'too-long' },
      { line: 2, reason: 'not-json' },
      { line: 3, reason: 'too-long' },
    ]);
  });

  test('BOM, CRLF and blank lines', async () => {
    const text = `\ufeff${JSON.stringify(user('with bom'))}\r\n\r\n   \n${JSON.stringify(user('crlf'))}\r\n`;
    const streamed = await readTranscriptStream(chunksOf(text));
    expect(streamed.messages.map((m) => m.text)).toEqual(['with bom', 'crlf']);
    expect(streamed.counts).toMatchObject({ lines: 2, malformed: 0 });
    expect(parseTranscriptText(text).messages).toEqual(streamed.messages);
  });

  test('multi-byte characters split across chunks survive', async () => {
    const line = Buffer.from(`${JSON.stringify(user('记住：以后都用 pnpm 🚀'))}\n`);
    const t = await readTranscriptStream(chunksOf(...Array.from({ length: line.length }, (_, i) => line.subarray(i, i + 1))));
    expect(t.messages[0]!.text).toBe('记住：以后都用 pnpm 🚀');
  });
});

describe('messagesAfter: the cursor', () => {
  const dag = path.join(sharedFixtures, 'transcripts/daaain+claude-code-log/dag_compact_after_rewind.jsonl');

  test('exposes the last compact boundary', async () => {
    const t = await readTranscript(dag);
    expect(t.lastCompactBoundary).toEqual({ uuid: 'cb', index: 8 });
    expect(t.messages[8]).toMatchObject({ uuid: 'cs', isHumanPrompt: false });
  });

  test('no cursor: everything; a known cursor: what follows it', async () => {
    const t = await readTranscript(dag);
    expect(messagesAfter(t, null)).toMatchObject({ from: 'start', messages: t.messages });
    const after = messagesAfter(t, 'b2u2');
    expect(after.from).toBe('cursor');
    expect(after.messages.map((m) => m.uuid)).toEqual(['b2a2', 'cs', 'p1u', 'p1a']);
    expect(messagesAfter(t, 'p1a').messages).toEqual([]);
    // a cursor on a non-message line (the boundary itself) works too
    expect(messagesAfter(t, 'cb').messages.map((m) => m.uuid)).toEqual(['cs', 'p1u', 'p1a']);
  });

  test('a cursor whose uuid is gone falls back to the messages after the last compact boundary', async () => {
    const t = await readTranscript(dag);
    const after = messagesAfter(t, 'uuid-from-before-compaction');
    expect(after.from).toBe('compact-boundary');
    expect(after.messages.map((m) => m.text)).toEqual(['', 'After compaction', 'Final answer']);
  });

  test('a gone cursor without any compact boundary starts over', () => {
    const t = parseTranscriptText(jsonl(user('a'), user('b')));
    expect(messagesAfter(t, 'gone')).toMatchObject({ from: 'start', messages: t.messages });
  });

  test('a cursor on one part of a split assistant message counts the whole message as read', () => {
    const t = parseTranscriptText(
      jsonl(assistant('m', [{ type: 'text', text: 'part one' }], { uuid: 'x1' }), assistant('m', [{ type: 'text', text: 'part two' }], { uuid: 'x2' }), user('next', { uuid: 'n' })),
    );
    expect(messagesAfter(t, 'x1').messages.map((m) => m.uuid)).toEqual(['n']);
    expect(messagesAfter(t, 'x2').messages.map((m) => m.uuid)).toEqual(['n']);
  });
});

describe('toolUsesWritingInto', () => {
  test('finds the Write into the memory directory in the real 2.1.197 session', async () => {
    const t = await readTranscript(path.join(sharedFixtures, 'claude-code-2.1.197/session-writes-memory.jsonl'));
    const writes = toolUsesWritingInto(t.messages, '/home/dev/.claude/projects/-home-dev-app/memory/');
    expect(writes.map((use) => [use.name, use.input.file_path])).toEqual([['Write', '/home/dev/.claude/projects/-home-dev-app/memory/feedback_no_mocks.md']]);
    expect(toolUsesWritingInto(t.messages, '/home/dev/app')).toEqual([]);
  });

  test('only writing tools, only paths inside the directory', () => {
    const memory = '/home/dev/memory';
    const t = parseTranscriptText(
      jsonl(
        assistant('m', [
          { type: 'tool_use', id: '1', name: 'Edit', input: { file_path: '/home/dev/memory/user_role.md' } },
          { type: 'tool_use', id: '2', name: 'MultiEdit', input: { file_path: '/home/dev/memory/sub/../project_x.md' } },
          { type: 'tool_use', id: '3', name: 'NotebookEdit', input: { notebook_path: '/home/dev/memory/n.ipynb' } },
          { type: 'tool_use', id: '4', name: 'Read', input: { file_path: '/home/dev/memory/user_role.md' } },
          { type: 'tool_use', id: '5', name: 'Write', input: { file_path: '/home/dev/memory-old/x.md' } },
          { type: 'tool_use', id: '6', name: 'Write', input: { file_path: '/home/dev/memory/../notes.md' } },
          { type: 'tool_use', id: '7', name: 'Write', input: { file_path: 'memory/relative.md' } },
          { type: 'tool_use', id: '8', name: 'Write', input: { file_path: '/home/dev/memory' } },
        ]),
      ),
    );
    expect(toolUsesWritingInto(t.messages, memory).map((use) => use.id)).toEqual(['1', '2', '3']);
  });
});
