import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { plantedWorkspace } from '../helpers/dream-fixture.js';
import { STACK_TRACE } from '../helpers/reliability.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { teamSetup, topic, writeTeam } from '../helpers/team-sync.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

/**
 * memdir's own state is not a door: a symlink planted at a state path (a memory directory committed
 * in a repository can carry one) never leads a write to the file or folder it names. The command
 * refuses it in one line naming the link (a hook still exits 0), and the canary outside is unchanged.
 */

const REFUSED = /a symbolic link where memdir keeps its own state; not followed/;
const CANARY = 'CANARY-BYTES\n';
const REMEMBER = 'remember: the deploy window is Tuesdays at 14:00 UTC';

interface Workspace {
  root: string;
  dir: string;
  repo: string;
  outside: string;
  env: NodeJS.ProcessEnv;
}

async function workspace(): Promise<Workspace> {
  const root = tempDir();
  fs.mkdirSync(path.join(root, 'home'));
  const { dir, repo } = await plantedWorkspace(root);
  const outside = path.join(root, 'outside');
  writeTree(outside, { 'canary.txt': CANARY, 'folder/canary.txt': CANARY });
  return { root, dir, repo, outside, env: cleanEnv(path.join(root, 'home')) };
}

/** Plant `link` (under the memory directory) pointing at the canary file, or at the canary folder. */
function plant(ws: Workspace, link: string, folder: boolean): void {
  const at = path.join(ws.dir, link);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(path.join(ws.outside, folder ? 'folder' : 'canary.txt'), at);
}

function stopHookInput(ws: Workspace): string {
  const transcript = path.join(ws.root, 'sess-1.jsonl');
  const message = { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 'sess-1', timestamp: '2026-11-30T10:00:00Z', message: { role: 'user', content: REMEMBER } };
  fs.writeFileSync(transcript, `${JSON.stringify(message)}\n`);
  return JSON.stringify({ session_id: 'sess-1', transcript_path: transcript, cwd: ws.repo, hook_event_name: 'Stop' });
}

/** The Stop hook's transcript, for a command that reads it by hand. */
function transcriptOf(ws: Workspace): string {
  stopHookInput(ws);
  return path.join(ws.root, 'sess-1.jsonl');
}

const SAVE = ['save', '--type', 'user', '--name', 'Role', '--description', 'The user is a data engineer on the billing team', '--body', 'Data engineer.'];

interface Case {
  link: string;
  folder: boolean;
  run: (ws: Workspace) => { args: string[]; input?: string };
  /** Exit code: 2 for a command, 0 for a hook (with the note on stderr). */
  exit: number;
}

const CASES: Case[] = [
  { link: '.memdir', folder: true, run: () => ({ args: SAVE }), exit: 2 },
  { link: '.memdir/lock', folder: false, run: () => ({ args: SAVE }), exit: 2 },
  { link: '.memdir/journal.json', folder: false, run: () => ({ args: ['lint', '--fix'] }), exit: 2 },
  { link: '.memdir/dream', folder: true, run: () => ({ args: ['dream', '--force'] }), exit: 2 },
  { link: '.consolidate-lock', folder: false, run: () => ({ args: ['dream', '--force'] }), exit: 2 },
  { link: '.memdir/extract.log', folder: false, run: (ws) => ({ args: ['extract', '--hook', '--engine', 'local'], input: stopHookInput(ws) }), exit: 0 },
  { link: '.memdir/sessions', folder: true, run: (ws) => ({ args: ['session', '--from', transcriptOf(ws)] }), exit: 2 },
  { link: '.memdir/session', folder: true, run: (ws) => ({ args: ['session', '--from', transcriptOf(ws)] }), exit: 2 },
  // A pending request of a coalesced call: the run that takes it refuses a link in its place, as docs' run does.
  { link: '.memdir/extract/pending/sess-2.json', folder: false, run: (ws) => ({ args: ['extract', '--from', transcriptOf(ws), '--engine', 'local'] }), exit: 2 },
  { link: '.memdir/session/pending/sess-2.json', folder: false, run: (ws) => ({ args: ['session', '--from', transcriptOf(ws)] }), exit: 2 },
  {
    link: '.memdir/recall-sessions',
    folder: true,
    run: (ws) => ({ args: ['recall', '--hook'], input: JSON.stringify({ session_id: 's1', prompt: 'can I merge to main now?', cwd: ws.repo, hook_event_name: 'UserPromptSubmit' }) }),
    exit: 0,
  },
];

describe('a symlink planted at a state path is refused, never written through', () => {
  test.each(CASES)('$link', async ({ link, folder, run, exit }) => {
    const ws = await workspace();
    if (link === '.memdir/journal.json') fs.mkdirSync(path.join(ws.dir, '.memdir'));
    plant(ws, link, folder);
    const before = snapshotTree(ws.outside);
    const { args, input } = run(ws);
    const result = await runMemdir([...args, '--dir', ws.dir], { cwd: ws.repo, env: ws.env, ...(input === undefined ? {} : { input }) });
    expect(result.code, result.stderr).toBe(exit);
    expect(result.stderr).toMatch(REFUSED);
    expect(result.stderr).toContain(path.join(ws.dir, link));
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(snapshotTree(ws.outside)).toEqual(before);
    expect(fs.lstatSync(path.join(ws.dir, link)).isSymbolicLink()).toBe(true);
  });
});

test('dream --undo refuses a link planted at .consolidate-lock before restoring anything', async () => {
  const ws = await workspace();
  expect((await runMemdir(['dream', '--force', '--dir', ws.dir], { cwd: ws.repo, env: ws.env })).code).toBe(0);
  const lock = path.join(ws.dir, '.consolidate-lock');
  fs.rmSync(lock);
  const canary = path.join(ws.outside, 'canary.txt');
  fs.utimesSync(canary, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
  fs.symlinkSync(canary, lock);
  const memories = snapshotTree(ws.dir);
  const result = await runMemdir(['dream', '--undo', '--dir', ws.dir], { cwd: ws.repo, env: ws.env });
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(REFUSED);
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(fs.statSync(canary).mtime.toISOString()).toBe('2020-01-01T00:00:00.000Z');
  expect(snapshotTree(ws.dir)).toEqual(memories);
});

describe('sync: its state folder, state file and private clone are not planted links', () => {
  test.each([
    ['.memdir/sync', true],
    ['.memdir/sync/state.json', false],
    ['.memdir/sync/git', true],
  ])('%s', async (link, folder) => {
    const { clones, sync } = await teamSetup(['a']);
    const a = clones.a!;
    writeTeam(a, { 'project_freeze.md': topic('Merge freeze', 'No merges to main during the release freeze') });
    const outside = path.join(path.dirname(a.mem), 'outside');
    writeTree(outside, { 'canary.txt': CANARY, 'folder/canary.txt': CANARY });
    fs.mkdirSync(path.join(a.mem, path.dirname(link)), { recursive: true });
    fs.symlinkSync(path.join(outside, folder ? 'folder' : 'canary.txt'), path.join(a.mem, link));
    const before = snapshotTree(outside);
    const result = await sync(a);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(REFUSED);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(snapshotTree(outside)).toEqual(before);
  });
});
