import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { sanitizeProjectPath } from '../../src/core/paths.js';
import { plantedWorkspace } from '../helpers/dream-fixture.js';
import { cleanEnv, runMemdir, type CliResult } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/**
 * A secret the user pasted (in a "remember …" request, a memory kept on purpose, an index line, a
 * file name, a query) never leaves through any output of any command: stdout, stderr, --json, hook
 * answers, dream's report and commit message, or any state file under `.memdir/`.
 */

// Built at run time so the repository holds no token-shaped string; a GitHub token shape the scanner knows,
// varied enough to pass gitleaks' entropy floor as a real token does.
const CANARY = ['gh', 'p_', 'Zq7Wm3Kx9Lb2Pd5Rt8', 'Vy1Hn4Jc6Fs0Ga3Me7'].join('');

const transcriptLine = (uuid: string, content: string) =>
  JSON.stringify({ type: 'user', uuid, parentUuid: null, sessionId: uuid, timestamp: '2026-11-30T10:00:00Z', message: { role: 'user', content } });

const topic = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: reference\n---\n\n${body}\n`;

/**
 * The planted dream workspace (something to change, so a dream applies and commits), its memory
 * directory a git repository, plus: a memory holding the canary, an index line and a file name with
 * it, and five sessions whose user asked to remember it (enough for the dream gate).
 */
async function canaryWorkspace() {
  const root = tempDir();
  const home = path.join(root, 'home');
  fs.mkdirSync(home, { recursive: true });
  const { dir, repo } = await plantedWorkspace(root);
  const remote = path.join(root, 'remote.git');
  await simpleGit().raw(['init', '--bare', '--quiet', remote]);
  await simpleGit(repo).addRemote('origin', remote);
  fs.appendFileSync(path.join(dir, 'MEMORY.md'), `- [Deploy token](reference_deploy_token.md) — CI deploys with ${CANARY}\n`);
  writeTree(dir, {
    'reference_deploy_token.md': topic('Deploy token', 'The token CI uses to deploy', `CI deploys with ${CANARY} (kept here on purpose).`),
    [`reference-${CANARY}.md`]: topic('Named badly', 'A file whose name holds a token', 'Nothing else.'),
    'team/MEMORY.md': '- [Shared token](reference_shared.md) — the shared token\n',
    'team/reference_shared.md': topic('Shared token', 'The token the team shares', `Use ${CANARY} for the bot.`),
  });
  const git = simpleGit(dir);
  await git.init();
  await git.addConfig('user.name', 'memdir test');
  await git.addConfig('user.email', 'test@memdir.invalid');
  await git.addConfig('commit.gpgsign', 'false');
  await git.add('.');
  await git.commit('memory');
  const sessions = path.join(home, '.claude', 'projects', sanitizeProjectPath(repo));
  const transcript = path.join(sessions, 's1.jsonl');
  writeTree(
    sessions,
    Object.fromEntries(['s1', 's2', 's3', 's4', 's5'].map((id) => [`${id}.jsonl`, `${transcriptLine(id, `remember that the billing robot signs in to the staging registry with ${CANARY}`)}\n`])),
  );
  const env = cleanEnv(home);
  const run = (args: string[], input?: string) => runMemdir(args, { cwd: repo, env, timeoutMs: 60_000, ...(input === undefined ? {} : { input }) });
  return { root, dir, repo, transcript, run, git };
}

/** Every channel of a run: the canary is in none of them. */
function expectNoCanary(label: string, result: CliResult): void {
  // Soft: one run names every channel that leaks, not only the first.
  expect.soft(result.stdout.includes(CANARY), `${label}: stdout\n${result.stdout}`).toBe(false);
  expect.soft(result.stderr.includes(CANARY), `${label}: stderr\n${result.stderr}`).toBe(false);
}

/**
 * Memory kept as it is, under `.memdir/`: dream's previous versions (undo restores them byte for
 * byte), the sync clone of team memory, and recall's index of the files by name and words.
 */
const MEMORY_COPIES = /^(?:dream\/[^/]+\/files\/|sync\/git\/|recall-index\.jsonl$|recall-vectors\.json$|recall-sessions\/)/;

/** Files memdir wrote that are not memories (its state folder but for memory kept as it is) holding the canary. */
function stateFilesWithCanary(dir: string): string[] {
  const state = path.join(dir, '.memdir');
  if (!fs.existsSync(state)) return [];
  return fs
    .readdirSync(state, { recursive: true, encoding: 'utf8' })
    .filter((file) => !MEMORY_COPIES.test(file) && fs.statSync(path.join(state, file)).isFile())
    .filter((file) => fs.readFileSync(path.join(state, file), 'utf8').includes(CANARY));
}

describe('a secret canary through every output channel', () => {
  test('a request extract refuses: extract (--dry-run, --json), then dream (the hook, stderr, --json, --dry-run, the report, the --commit message, every state file)', async () => {
    const { dir, transcript, run, git } = await canaryWorkspace();
    for (const flags of [['--dry-run'], ['--dry-run', '--json'], ['--json'], []]) {
      expectNoCanary(`extract ${flags.join(' ')}`, await run(['extract', '--from', transcript, '--dir', dir, '--engine', 'local', ...flags]));
    }
    const hook = await run(['dream', '--hook', '--dir', dir, '--min-hours', '0', '--min-sessions', '1'], JSON.stringify({ session_id: 's9', hook_event_name: 'SessionEnd', reason: 'exit' }));
    expectNoCanary('dream --hook', hook);
    await git.raw(['reset', '--hard', '--quiet']);
    await git.raw(['clean', '-fdq', '-e', '.memdir']);
    expectNoCanary('dream --dry-run', await run(['dream', '--dir', dir, '--force', '--dry-run']));
    const dryJson = await run(['dream', '--dir', dir, '--force', '--dry-run', '--json']);
    expectNoCanary('dream --dry-run --json', dryJson);
    // The request is known, just not carried: the secret is why extract refused it.
    expect.soft(JSON.parse(dryJson.stdout).unsaved).toEqual([]);
    const applied = await run(['dream', '--dir', dir, '--force', '--commit', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expectNoCanary('dream --commit --json', applied);
    const report = JSON.parse(applied.stdout).report as string;
    expect.soft(fs.readFileSync(report, 'utf8'), 'report').not.toContain(CANARY);
    expect.soft(await git.raw(['log', '-1', '--format=%B']), 'commit message').not.toContain(CANARY);
    expectNoCanary('dream --undo', await run(['dream', '--dir', dir, '--undo']));
    expectNoCanary('dream (stderr, human)', await run(['dream', '--dir', dir, '--force']));
    expect.soft(stateFilesWithCanary(dir), 'state files').toEqual([]);
  });

  test('lint (stylish, json, sarif), list, show, recall (and --hook), context (and --hook), refactor --dry-run, sync', async () => {
    const { root, dir, repo, run } = await canaryWorkspace();
    for (const format of ['stylish', 'json', 'sarif']) {
      expectNoCanary(`lint --format ${format}`, await run(['lint', dir, '--format', format]));
      const file = path.join(root, `lint.${format}`);
      expectNoCanary(`lint --format ${format} --output-file`, await run(['lint', dir, '--format', format, '--output-file', file]));
      expect.soft(fs.readFileSync(file, 'utf8'), `lint --format ${format} --output-file: the file`).not.toContain(CANARY);
    }
    expectNoCanary('list', await run(['list', '--dir', dir]));
    expectNoCanary('list --json', await run(['list', '--dir', dir, '--json']));
    expectNoCanary('show', await run(['show', 'reference_deploy_token.md', '--dir', dir]));
    expectNoCanary('show --json', await run(['show', 'reference_deploy_token.md', '--dir', dir, '--json']));
    expectNoCanary('recall', await run(['recall', 'which token does CI deploy with', '--dir', dir]));
    expectNoCanary('recall --json', await run(['recall', `deploy ${CANARY}`, '--dir', dir, '--json']));
    const prompt = JSON.stringify({ session_id: 'r1', prompt: `CI deploy token ${CANARY}`, cwd: repo, hook_event_name: 'UserPromptSubmit', transcript_path: '/x.jsonl' });
    const recallHook = await run(['recall', '--hook', '--dir', dir], prompt);
    expectNoCanary('recall --hook', recallHook);
    expect.soft(JSON.parse(recallHook.stdout).hookSpecificOutput.additionalContext).toContain('[REDACTED]');
    expectNoCanary('context', await run(['context', '--dir', dir]));
    expectNoCanary('context --hook', await run(['context', '--hook', '--dir', dir], JSON.stringify({ session_id: 'c1', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' })));
    expectNoCanary('refactor --dry-run', await run(['refactor', '--dir', dir, '--dry-run', '--diff']));
    expectNoCanary('sync', await run(['sync', '--dir', dir]));
    expectNoCanary('sync --json', await run(['sync', '--dir', dir, '--json']));
    expect.soft(stateFilesWithCanary(dir), 'state files').toEqual([]);
  });

  test('errors quoting user text: an unknown memory, a bad flag value, an unknown command', async () => {
    const { dir, run } = await canaryWorkspace();
    expectNoCanary('show (missing)', await run(['show', `reference-${CANARY}-gone.md`, '--dir', dir]));
    expectNoCanary('show --json (missing)', await run(['show', `gone-${CANARY}.md`, '--dir', dir, '--json']));
    expectNoCanary('lint --format', await run(['lint', dir, '--format', CANARY]));
    expectNoCanary('unknown command', await run([CANARY]));
    expectNoCanary('save --type', await run(['save', '--dir', dir, '--type', CANARY, '--name', 'x', '--description', 'y', '--body', 'z']));
  });
});
