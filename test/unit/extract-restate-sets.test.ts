import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { extract } from '../../src/extract/extract.js';
import { repoRoot } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

// Every labelled set and every real transcript fixture, extracted twice into one directory: the
// second pass is a later session saying all of it again. It must update or leave the memories of
// the first, never write a second file (`…_2.md`) for a statement already kept.
const bench = path.join(repoRoot, 'bench/extract');
const sets = fs
  .readdirSync(bench)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();

type Line = Record<string, unknown>;

/** The set's messages as one session's transcript (Claude Code's line format), dated `day`. */
function setTranscript(file: string, session: string, day: string): string {
  const rows = fs
    .readFileSync(path.join(bench, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { text: string });
  const lines: Line[] = [];
  let parent: string | null = null;
  rows.forEach((row, i) => {
    const timestamp = new Date(Date.parse(`${day}T08:00:00Z`) + i * 60_000).toISOString();
    const user = `${session}-u${i}`;
    lines.push({
      parentUuid: parent,
      isSidechain: false,
      type: 'user',
      message: { role: 'user', content: row.text },
      uuid: user,
      timestamp,
      sessionId: session,
      cwd: '/home/dev/app',
      version: '2.1.197',
    });
    const assistant = `${session}-a${i}`;
    lines.push({
      parentUuid: user,
      isSidechain: false,
      type: 'assistant',
      message: { id: `msg_${session}_${i}`, role: 'assistant', content: [{ type: 'text', text: 'OK.' }] },
      uuid: assistant,
      timestamp,
      sessionId: session,
    });
    parent = assistant;
  });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** A real transcript again, as a later session: new ids, a week later. */
function later(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.trim()) return line;
      let value: Line;
      try {
        value = JSON.parse(line);
      } catch {
        return line;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return line;
      for (const field of ['uuid', 'parentUuid', 'logicalParentUuid', 'leafUuid', 'sessionId']) if (typeof value[field] === 'string') value[field] = `${value[field]}-later`;
      if (typeof value.timestamp === 'string' && !Number.isNaN(Date.parse(value.timestamp))) value.timestamp = new Date(Date.parse(value.timestamp) + 7 * 86_400_000).toISOString();
      return JSON.stringify(value);
    })
    .join('\n');
}

const topicFiles = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md') && f !== 'MEMORY.md' && !f.startsWith('.memdir'))
        .sort()
    : [];

/** `x_2.md` beside `x.md`: a second file for one name (not a number the name holds, as `utc_8.md` alone). */
const numbered = (files: string[]) => files.filter((f) => /_\d+\.md$/.test(f) && files.includes(f.replace(/_\d+\.md$/, '.md')));

describe('extract twice: a later session saying it all again writes no new file', () => {
  test.each(sets)('%s', async (set) => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    const first = path.join(root, 'first.jsonl');
    const second = path.join(root, 'second.jsonl');
    fs.writeFileSync(first, setTranscript(set, 'first', '2026-11-02'));
    fs.writeFileSync(second, setTranscript(set, 'second', '2026-11-20'));
    const one = await extract({ dir, transcript: first, engine: 'local', every: 1 });
    const files = topicFiles(dir);
    if (one.operations.length > 0) expect(files.length).toBeGreaterThan(0);
    const two = await extract({ dir, transcript: second, engine: 'local', every: 1 });
    expect(two.status).toBe('extracted');
    expect(two.operations.filter((o) => o.op === 'create')).toEqual([]);
    // The same words again are no contradiction of the memory they made.
    expect(two.operations.filter((o) => o.contradiction).map((o) => o.contradiction)).toEqual([]);
    expect(topicFiles(dir)).toEqual(files);
    expect(numbered(topicFiles(dir))).toEqual([]);
  });

  test('the real transcript fixtures', async () => {
    const fixtures = [path.join(repoRoot, 'test/fixtures/shared/transcripts'), path.join(repoRoot, 'test/fixtures/shared/claude-code-2.1.197')];
    const transcripts = fixtures.flatMap((base) =>
      fs
        .readdirSync(base, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
        .map((f) => path.join(base, f)),
    );
    expect(transcripts.length).toBeGreaterThan(10);
    const root = tempDir();
    const dir = path.join(root, 'memory');
    for (const file of transcripts) await extract({ dir, transcript: file, engine: 'local', every: 1 });
    const files = topicFiles(dir);
    for (const [i, file] of transcripts.entries()) {
      const again = path.join(root, `later-${i}.jsonl`);
      fs.writeFileSync(again, later(fs.readFileSync(file, 'utf8')));
      const two = await extract({ dir, transcript: again, engine: 'local', every: 1 });
      expect(
        two.operations.filter((o) => o.op === 'create'),
        file,
      ).toEqual([]);
    }
    expect(topicFiles(dir)).toEqual(files);
    expect(numbered(files)).toEqual([]);
  });
});
