import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { memoriesClaudeCodeSurfaced } from '../../src/claude-code/surfaced-memories.js';
import { tempDir } from '../helpers/temp.js';

const attachment = (...paths: string[]) =>
  `${JSON.stringify({ type: 'attachment', attachment: { type: 'relevant_memories', memories: paths.map((p) => ({ path: p, content: 'x', mtimeMs: 0, header: `Memory: ${p}:` })) } })}\n`;
const boundary = `${JSON.stringify({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted' })}\n`;
const user = (text: string) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;

test('the memories of relevant_memories attachments since the last compaction, each once, in order', () => {
  const file = path.join(tempDir(), 't.jsonl');
  fs.writeFileSync(
    file,
    attachment('/m/a.md') + boundary + user('mentions "relevant_memories" in prose') + attachment('/m/b.md', '/m/c.md') + '{not json "relevant_memories"\n' + attachment('/m/b.md'),
  );
  expect(memoriesClaudeCodeSurfaced(file)).toEqual(['/m/b.md', '/m/c.md']);
});

test('only the tail is read: a line cut at its start is dropped, whole lines after it count', () => {
  const file = path.join(tempDir(), 't.jsonl');
  const early = attachment('/m/early.md');
  const filler = user('y'.repeat(2000));
  fs.writeFileSync(file, early + filler + attachment('/m/late.md'));
  const tail = filler.length + attachment('/m/late.md').length + 10; // starts inside `early`
  expect(memoriesClaudeCodeSurfaced(file, tail)).toEqual(['/m/late.md']);
  expect(memoriesClaudeCodeSurfaced(file)).toEqual(['/m/early.md', '/m/late.md']);
});

test('no transcript, a missing one, a directory or a FIFO give nothing, without waiting', () => {
  const dir = tempDir();
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  for (const input of [undefined, '', path.join(dir, 'missing.jsonl'), dir, fifo]) expect(memoriesClaudeCodeSurfaced(input)).toEqual([]);
});
