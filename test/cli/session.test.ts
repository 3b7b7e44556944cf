import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { waitForDetachedExtracts } from '../helpers/claude.js';
import { sharedFixtures } from '../helpers/fixtures.js';
import { runRecorded } from '../helpers/load-recorder.js';
import { cleanEnv, memdirBin, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir } from '../helpers/temp.js';

type Line = Record<string, unknown>;

const REAL = path.join(sharedFixtures, 'transcripts/d-kimuson+claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');

function workspace() {
  const root = tempDir();
  return { root, dir: path.join(root, 'memory'), env: cleanEnv(path.join(root, 'home')) };
}

const notesFile = (dir: string, session: string) => path.join(dir, '.memdir/sessions', `${session}.md`);

describe('memdir session --from', () => {
  test('writes the notes of a real session by hand, whatever the thresholds', async () => {
    const { root, dir, env } = workspace();
    const result = await runMemdir(['session', '--from', REAL, '--dir', dir], { cwd: root, env });
    expect(result.stderr).toMatch(
      /^memdir session: wrote .*5c0375b4-57a5-4f26-b12d-d022ee4e51b7\.md \(\d+ tokens; written on request \(the conversation has \d+ tokens, under 10000 for the first notes\)\)\n$/,
    );
    expect(result.code).toBe(0);
    const notes = fs.readFileSync(notesFile(dir, '5c0375b4-57a5-4f26-b12d-d022ee4e51b7'), 'utf8');
    expect(notes).toContain('# Errors and corrections');
    expect(notes).toContain('Request: "/orchestrator @CLAUDE.md を最新の状態にアップデートしてください"');
    // Only memdir's state changed: no memory was written.
    expect(fs.readdirSync(dir).filter((f) => f !== '.memdir')).toEqual([]);
    const again = await runMemdir(['session', '--from', REAL, '--dir', dir], { cwd: root, env });
    expect(again.stderr).toMatch(/already says this/);
  });

  test('--dry-run prints the notes and writes nothing; --json says what it did', async () => {
    const { root, dir, env } = workspace();
    const dry = await runMemdir(['session', '--from', REAL, '--dir', dir, '--dry-run'], { cwd: root, env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^<!-- memdir session notes: session 5c0375b4/);
    expect(dry.stdout).toContain('# Worklog');
    expect(fs.existsSync(dir)).toBe(false);
    const json = await runMemdir(['session', '--from', REAL, '--dir', dir, '--json'], { cwd: root, env });
    const result = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 'written', engine: 'local', sessionId: '5c0375b4-57a5-4f26-b12d-d022ee4e51b7', dryRun: false });
    expect(result.notesTokens).toBeLessThanOrEqual(6_000);
  });

  test('reads stdin with -', async () => {
    const { root, dir, env } = workspace();
    const result = await runMemdir(['session', '--from', '-', '--dir', dir], { cwd: root, env, input: fs.readFileSync(REAL, 'utf8') });
    expect(result.code).toBe(0);
    expect(fs.existsSync(notesFile(dir, '5c0375b4-57a5-4f26-b12d-d022ee4e51b7'))).toBe(true);
  });

  test('a file that is not a transcript: one line naming it, exit 2, nothing written', async () => {
    const { root, dir, env } = workspace();
    const bad = path.join(root, 'notes.txt');
    fs.writeFileSync(bad, 'just some text\nnot json\n');
    const result = await runMemdir(['session', '--from', bad, '--dir', dir], { cwd: root, env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(bad);
    expect(fs.existsSync(path.join(dir, '.memdir/sessions'))).toBe(false);
    const missing = await runMemdir(['session', '--dir', dir], { cwd: root, env });
    expect(missing.code).toBe(2);
  });
});

/**
 * The main-conversation lines of the real session, repeated `times` with fresh uuids (so the
 * conversation passes the thresholds at their defaults), chained in order.
 */
function longSession(times: number): Line[] {
  const lines = fs
    .readFileSync(REAL, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.isSidechain !== true && typeof l.uuid === 'string');
  const out: Line[] = [];
  for (let i = 0; i < times; i++) {
    const fresh = (uuid: unknown) => (typeof uuid === 'string' ? `${uuid.slice(0, 30)}${String(i).padStart(6, '0')}` : uuid);
    for (const line of lines) {
      const message = line.message as Line | undefined;
      out.push({ ...line, uuid: fresh(line.uuid), parentUuid: fresh(line.parentUuid), ...(message && typeof message.id === 'string' ? { message: { ...message, id: `${message.id}-${i}` } } : {}) });
    }
  }
  return out;
}

/** What the thresholds count, restated here from the transcript lines alone: characters of text, tool inputs and tool results. */
function contentChars(line: Line): number {
  const strings = (value: unknown): number =>
    typeof value === 'string'
      ? value.length
      : Array.isArray(value)
        ? value.reduce((n: number, v) => n + strings(v), 0)
        : value && typeof value === 'object'
          ? Object.values(value).reduce((n: number, v) => n + strings(v), 0)
          : 0;
  const content = (line.message as Line | undefined)?.content;
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let sum = 0;
  for (const block of content as Line[]) {
    if (block.type === 'text') sum += String(block.text).length;
    if (block.type === 'tool_use') sum += String(block.name).length + strings(block.input);
    if (block.type === 'tool_result')
      sum +=
        typeof block.content === 'string'
          ? block.content.length
          : Array.isArray(block.content)
            ? (block.content as Line[]).reduce((n, b) => n + (b.type === 'text' ? String(b.text).length : 0), 0)
            : 0;
  }
  return sum;
}

const toolUses = (line: Line) =>
  line.type === 'assistant' && Array.isArray((line.message as Line).content) ? ((line.message as Line).content as Line[]).filter((b) => b.type === 'tool_use').length : 0;
/** A line the human typed (a prompt or a slash command), not a tool result or a meta line. */
const opensTurn = (line: Line) =>
  line.type === 'user' && line.isMeta !== true && !(Array.isArray((line.message as Line).content) && ((line.message as Line).content as Line[]).some((b) => b.type === 'tool_result'));

describe('memdir session --hook, a transcript grown turn by turn', () => {
  test('the Stop hook writes the notes exactly when the thresholds say', async () => {
    const { root, dir, env } = workspace();
    const session = 'grown-session';
    const transcript = path.join(root, `${session}.jsonl`);
    const lines = longSession(4);
    // A step ends where the next line is a user line: Claude Code's Stop comes once the agent has answered.
    const steps = lines.flatMap((_line, i) => (i + 1 === lines.length || lines[i + 1]!.type === 'user' ? [i + 1] : []));
    expect(steps.length).toBeGreaterThan(20);

    // The expected writes, from the rule: 10,000 tokens first, then 5,000 more with ≥ 3 tool calls since or a last turn without any.
    const expected: number[] = [];
    let written: { chars: number; at: number } | undefined;
    for (const end of steps) {
      const prefix = lines.slice(0, end);
      const tokens = Math.ceil(prefix.reduce((n, l) => n + contentChars(l), 0) / 4);
      const since = written ? prefix.slice(written.at) : prefix;
      const lastTurn = prefix.slice(Math.max(0, prefix.findLastIndex(opensTurn)));
      const due = !written ? tokens >= 10_000 : tokens - written.chars >= 5_000 && (since.reduce((n, l) => n + toolUses(l), 0) >= 3 || lastTurn.every((l) => toolUses(l) === 0));
      if (due) {
        expected.push(end);
        written = { chars: tokens, at: end };
      }
    }
    expect(expected.length).toBeGreaterThanOrEqual(2);

    const seen: number[] = [];
    let before = '';
    for (const end of steps) {
      fs.writeFileSync(
        transcript,
        `${lines
          .slice(0, end)
          .map((l) => JSON.stringify(l))
          .join('\n')}\n`,
      );
      const input = JSON.stringify({ session_id: session, transcript_path: transcript, cwd: root, hook_event_name: 'Stop', stop_hook_active: false });
      const hook = await runMemdir(['session', '--hook', '--dir', dir], { cwd: root, env, input });
      expect(hook).toMatchObject({ code: 0, stdout: '', stderr: '' });
      await waitForDetachedExtracts(dir, 60_000, 'session');
      const now = fs.existsSync(notesFile(dir, session)) ? fs.readFileSync(notesFile(dir, session), 'utf8') : '';
      if (now !== before) seen.push(end);
      before = now;
    }
    expect(seen).toEqual(expected);
    const log = fs.existsSync(path.join(dir, '.memdir/session.log')) ? fs.readFileSync(path.join(dir, '.memdir/session.log'), 'utf8') : '';
    expect(log).not.toMatch(/error|failed/i);
    // Every line of the final notes still cites messages of the transcript.
    const uuids = new Set(lines.map((l) => l.uuid as string));
    for (const [, ref] of before.matchAll(/\[m:([A-Za-z0-9_-]+)\]/g)) expect([...uuids].filter((u) => u === ref || u.startsWith(ref!))).toHaveLength(1);
  }, 300_000);

  test('a transcript that has not grown starts nothing', async () => {
    const { root, dir, env } = workspace();
    const transcript = path.join(root, 's.jsonl');
    fs.copyFileSync(path.join(sharedFixtures, 'transcripts/daaain+claude-code-log/edge_cases.jsonl'), transcript);
    const input = JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: root, hook_event_name: 'Stop' });
    await runMemdir(['session', '--hook', '--dir', dir], { cwd: root, env, input });
    await waitForDetachedExtracts(dir, 60_000, 'session');
    // Under 10,000 tokens in bytes: no run was started, so no cursor and no notes.
    expect(snapshotTree(path.join(dir, '.memdir/session/cursors'))).toEqual({});
    expect(fs.existsSync(notesFile(dir, 's'))).toBe(false);
  });
});

test('session --hook answers through its fast path, as the full CLI does; a turn that cannot be due starts no run', async () => {
  const { root, dir, env } = workspace();
  const transcript = path.join(root, 's.jsonl');
  fs.copyFileSync(path.join(sharedFixtures, 'transcripts/daaain+claude-code-log/edge_cases.jsonl'), transcript);
  const input = JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: root, hook_event_name: 'Stop' });
  const fast = await runRecorded(root, [memdirBin, 'session', '--hook', '--dir', dir], { env, input });
  const full = await runRecorded(root, [path.join(repoRoot, 'dist/cli.cjs'), 'session', '--hook', '--dir', dir], { env, input });
  expect([fast.code, fast.stdout, fast.stderr]).toEqual([full.code, full.stdout, full.stderr]);
  expect([fast.code, fast.stdout, fast.stderr]).toEqual([0, '', '']);
  expect(fast.modules.some((m) => m.endsWith('dist/fast/session.cjs'))).toBe(true);
  expect(fast.modules.some((m) => m.endsWith('dist/cli.cjs'))).toBe(false);
  // Under 40,000 bytes the conversation cannot hold 10,000 tokens: no run, so no log and no cursor.
  expect(fs.existsSync(path.join(dir, '.memdir/session.log'))).toBe(false);
  expect(fs.existsSync(path.join(dir, '.memdir/session/cursors'))).toBe(false);
  // Unreadable input: one line on stderr, exit 0, from either path.
  const broken = await runRecorded(root, [memdirBin, 'session', '--hook', '--dir', dir], { env, input: '{"session_id": "s"}' });
  expect([broken.code, broken.stdout]).toEqual([0, '']);
  expect(broken.stderr.trim().split('\n')).toHaveLength(1);
});

test('one run at a time per directory: a call during a run is coalesced, and the next run takes it', async () => {
  const { root, dir, env } = workspace();
  // Another live process holds the run lock (this test's own process: alive, its lock fresh).
  fs.mkdirSync(path.join(dir, '.memdir/session'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.memdir/session/run.lock'), JSON.stringify({ pid: process.pid, time: Date.now(), token: 'held-by-test' }));
  const coalesced = await runMemdir(['session', '--from', REAL, '--dir', dir, '--json'], { cwd: root, env });
  expect(coalesced.code, coalesced.stderr).toBe(0);
  expect(JSON.parse(coalesced.stdout)).toMatchObject({ status: 'coalesced' });
  expect(fs.readdirSync(path.join(dir, '.memdir/session/pending'))).toHaveLength(1);
  expect(fs.existsSync(notesFile(dir, '5c0375b4-57a5-4f26-b12d-d022ee4e51b7'))).toBe(false);

  // The holder lets go; the next run (another session) writes its notes, then takes the pending one.
  fs.rmSync(path.join(dir, '.memdir/session/run.lock'));
  const other = path.join(root, 'other.jsonl');
  fs.copyFileSync(path.join(sharedFixtures, 'transcripts/daaain+claude-code-log/edge_cases.jsonl'), other);
  const next = await runMemdir(['session', '--from', other, '--dir', dir], { cwd: root, env });
  expect(next.code, next.stderr).toBe(0);
  expect(next.stderr).toMatch(/trailing run over .*5c0375b4-57a5-4f26-b12d-d022ee4e51b7\.jsonl: written/);
  expect(fs.existsSync(notesFile(dir, '5c0375b4-57a5-4f26-b12d-d022ee4e51b7'))).toBe(true);
  expect(fs.readdirSync(path.join(dir, '.memdir/session/pending'))).toEqual([]);
});
