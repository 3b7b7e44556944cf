import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { expandExample } from '../../src/core/secrets.js';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir, type CliResult } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';
import { pushRawTree, topic } from '../helpers/team-sync.js';

const token = expandExample('ghp_{an:36}');
type Report = { files: Array<{ file: string; status: string; reason?: string; rules?: string[] }>; summary: Record<string, number> };
const json = (result: CliResult) => JSON.parse(result.stdout) as Report;
const statusOf = (result: CliResult, file: string) => json(result).files.find((f) => f.file === file)?.status;

interface Machine {
  home: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  /** The memory directory memdir resolves there (Claude Code's default place). */
  mem: string;
  run: (args: string[], extra?: NodeJS.ProcessEnv) => Promise<CliResult>;
}

/**
 * One person, two machines: each its own HOME and Claude Code config, the same project cloned at a
 * different path (so each has a different memory directory), and one private bare remote.
 */
async function twoMachines() {
  const root = tempDir('memdir-personal-');
  const project = path.join(root, 'project.git');
  await simpleGit().raw(['init', '--bare', '--quiet', project]);
  const personal = path.join(root, 'personal.git');
  await simpleGit().raw(['init', '--bare', '--quiet', personal]);
  const machine = async (name: string, clonePath: string): Promise<Machine> => {
    const home = path.join(root, name, 'home');
    fs.mkdirSync(home, { recursive: true });
    const repo = await createRepo(path.join(root, name, clonePath));
    await simpleGit(repo).addRemote('origin', project);
    const env = cleanEnv(home, { CLAUDE_CONFIG_DIR: path.join(home, '.claude') });
    const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => runMemdir(args, { cwd: repo, env: { ...env, ...extra }, timeoutMs: 60_000 });
    const where = await run(['where']);
    expect(where.code, where.stderr).toBe(0);
    return { home, repo, env, mem: where.stdout.trim().split('\n')[0]!, run };
  };
  const a = await machine('a', 'work/app');
  const b = await machine('b', 'src/elsewhere/app');
  /** The private remote's branch: path → content. */
  const remoteFiles = async (branch: string): Promise<Record<string, string>> => {
    const git = simpleGit(personal);
    const listed = await git.raw(['ls-tree', '-r', '-z', '--name-only', branch]).catch(() => '');
    const out: Record<string, string> = {};
    for (const file of listed.split('\0').filter(Boolean)) out[file] = await git.show([`${branch}:${file}`]);
    return out;
  };
  const branches = async () => (await simpleGit(personal).raw(['branch', '--format=%(refname:short)'])).trim().split('\n').filter(Boolean);
  return { root, personal, a, b, remoteFiles, branches };
}

function userConfig(m: Machine, sync: Record<string, unknown>): void {
  writeTree(m.home, { '.config/memdir/config.json': JSON.stringify({ sync }) });
}

/** The memory files of a directory (no `.memdir/` state): path → content. */
function memoryFiles(mem: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rel, b64] of Object.entries(snapshotTree(mem))) if (!rel.startsWith('.memdir')) out[rel] = Buffer.from(b64, 'base64').toString('utf8');
  return out;
}

const save = (m: Machine, name: string, body: string, extra: string[] = []) =>
  m.run(['save', '--type', 'feedback', '--name', name, '--description', `about ${name}`, '--body', `${body}\n\n**Why:** asked for it.\n**How to apply:** always.`, ...extra]);

describe('memdir sync --scope personal', () => {
  test('two machines, one private remote: a memory saved on one appears on the other; team/ and .memdir/ stay home; a secret is refused', async () => {
    const { personal, a, b, remoteFiles, branches } = await twoMachines();
    expect(a.mem).not.toBe(b.mem);
    const saved = await save(a, 'Terse replies', 'No summary at the end of a reply.');
    expect(saved.code, saved.stderr).toBe(0);
    writeTree(a.mem, {
      'team/MEMORY.md': '- [Freeze](project_freeze.md) — deploy freeze\n',
      'team/project_freeze.md': topic('Freeze', 'team only'),
      'project_keys.md': topic('Keys', `the token is ${token}`),
    });
    userConfig(a, { personalRemote: personal });

    const first = await a.run(['sync', '--scope', 'personal', '--json']);
    expect(first.code, first.stderr).toBe(1); // the secret was refused
    expect(statusOf(first, 'project_keys.md')).toBe('refused');
    expect(json(first).files.find((f) => f.file === 'project_keys.md')?.rules).toEqual(['github-pat']);
    expect(first.stdout).not.toContain(token);
    expect(statusOf(first, 'feedback_terse_replies.md')).toBe('pushed');
    // One branch per project, named after its origin: the same on both machines, wherever the clone sits.
    const [branch] = await branches();
    expect(await branches()).toHaveLength(1);
    expect(branch).toMatch(/^memdir\/personal\/.*project$/);
    const remote = await remoteFiles(branch!);
    expect(Object.keys(remote).sort()).toEqual(['MEMORY.md', 'feedback_terse_replies.md']);

    // Machine B names the remote on the command line; its memory directory is empty.
    const pulled = await b.run(['sync', '--scope', 'personal', '--remote', personal, '--json']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(json(pulled).summary).toMatchObject({ pulled: 2, refused: 0 });
    const onB = memoryFiles(b.mem);
    expect(Object.keys(onB).sort()).toEqual(['MEMORY.md', 'feedback_terse_replies.md']);
    expect(onB['feedback_terse_replies.md']).toBe(fs.readFileSync(path.join(a.mem, 'feedback_terse_replies.md'), 'utf8'));
    expect(onB['MEMORY.md']).toBe(fs.readFileSync(path.join(a.mem, 'MEMORY.md'), 'utf8'));
    const listed = await b.run(['list']);
    expect(listed.stdout).toContain('Terse replies');

    // And back: B's memory reaches A (the remote from the environment this time); A's index keeps both pointers.
    expect((await save(b, 'Plain words', 'Say it plainly.')).code).toBe(0);
    const pushedB = await b.run(['sync', '--scope', 'personal', '--json'], { MEMDIR_SYNC_PERSONAL_REMOTE: personal });
    expect(pushedB.code, pushedB.stderr).toBe(0);
    const back = await a.run(['sync', '--scope', 'personal', '--json']);
    expect(back.code).toBe(1); // the secret, still refused
    expect(fs.readFileSync(path.join(a.mem, 'feedback_plain_words.md'), 'utf8')).toBe(fs.readFileSync(path.join(b.mem, 'feedback_plain_words.md'), 'utf8'));
    const indexA = fs.readFileSync(path.join(a.mem, 'MEMORY.md'), 'utf8');
    expect(indexA).toContain('(feedback_terse_replies.md)');
    expect(indexA).toContain('(feedback_plain_words.md)');
    expect(fs.existsSync(path.join(b.mem, 'team'))).toBe(false);
    expect(Object.keys(await remoteFiles(branch!)).some((f) => f.startsWith('team/') || f.startsWith('.memdir'))).toBe(false);
  });

  test('a secret leaves only with --allow-secret to a remote the user config declares private; a project config chooses no remote', async () => {
    const { personal, a, remoteFiles, branches } = await twoMachines();
    writeTree(a.mem, { 'project_keys.md': topic('Keys', `the token is ${token}`) });
    // A committed config of the clone may not choose where private memory goes.
    writeTree(a.repo, { 'memdir.config.json': JSON.stringify({ sync: { personalRemote: personal, personalPrivate: true } }) });
    const untrusted = await a.run(['sync', '--scope', 'personal']);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toContain('memdir: ignoring sync.personalRemote, sync.personalPrivate in ');
    expect(untrusted.stderr).toContain('memdir: sync --scope personal needs a remote of your own');
    const untrustedPrivate = await a.run(['sync', '--scope', 'personal', '--remote', personal, '--allow-secret']);
    expect(untrustedPrivate.code).toBe(2);
    expect(untrustedPrivate.stderr).toContain('the remote is not declared private');
    fs.rmSync(path.join(a.repo, 'memdir.config.json'));
    expect(await branches()).toEqual([]);

    const before = snapshotTree(a.mem);
    const notPrivate = await a.run(['sync', '--scope', 'personal', '--remote', personal, '--allow-secrets']);
    expect(notPrivate.code).toBe(2);
    expect(notPrivate.stderr.trim().split('\n').at(-1)).toBe(
      'memdir: sync --allow-secret: the remote is not declared private; set "sync": { "personalPrivate": true } in your user config (~/.config/memdir/config.json) if only you can read it',
    );
    expect(snapshotTree(a.mem)).toEqual(before);
    expect(await branches()).toEqual([]);

    userConfig(a, { personalRemote: personal, personalPrivate: true });
    const allowed = await a.run(['sync', '--scope', 'personal', '--allow-secret', '--json']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(json(allowed).files.find((f) => f.file === 'project_keys.md')).toMatchObject({ status: 'pushed', rules: ['github-pat'] });
    expect(allowed.stdout).not.toContain(token);
    const [branch] = await branches();
    expect((await remoteFiles(branch!))['project_keys.md']).toContain(token);
    // Team sync takes no --allow-secret.
    const team = await a.run(['sync', '--allow-secret']);
    expect(team.code).toBe(2);
  });

  test('a personal branch carrying team/ or .memdir/ files does not write them here', async () => {
    const { personal, b } = await twoMachines();
    const branch = 'memdir/personal/crafted';
    pushRawTree(
      personal,
      [
        { path: 'feedback_ok.md', content: topic('Ok', 'fine', 'feedback') },
        { path: 'team/project_planted.md', content: topic('Planted', 'would reach the whole team') },
        { path: '.memdir/sync/state.json', content: '{}' },
      ],
      branch,
    );
    const pulled = await b.run(['sync', '--scope', 'personal', 'pull', '--remote', personal, '--branch', branch, '--json']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(json(pulled).files).toEqual([
      { file: '.memdir/sync/state.json', status: 'skipped', reason: 'remote path key refused: has a hidden (dot) segment' },
      { file: 'feedback_ok.md', status: 'pulled' },
      {
        file: 'team/project_planted.md',
        status: 'skipped',
        reason: 'cannot write it here: this sync does not carry that folder (team/ is synced by `memdir sync`, private memory by `--scope personal`)',
      },
    ]);
    expect(Object.keys(memoryFiles(b.mem))).toEqual(['feedback_ok.md']);
  });

  test('kill -9 mid-sync leaves both sides whole, and a rerun completes', async () => {
    const { personal, a, b, remoteFiles, branches } = await twoMachines();
    for (const m of [a, b]) userConfig(m, { personalRemote: personal });
    for (const name of ['One', 'Two', 'Three']) expect((await save(a, name, `${name} body`)).code).toBe(0);
    // Killed after the fetch, before anything was pushed: the remote has no branch, the directory is as it was.
    const beforeA = snapshotTree(a.mem);
    const killedEarly = await a.run(['sync', '--scope', 'personal'], { MEMDIR_TEST_CRASH_AT: 'sync-fetched' });
    expect(killedEarly.code).toBe(-1);
    expect(await branches()).toEqual([]);
    expect(memoryFiles(a.mem)).toEqual(
      Object.fromEntries(
        Object.entries(beforeA)
          .filter(([k]) => !k.startsWith('.memdir'))
          .map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      ),
    );
    // Killed right after the push, before the sync state was written: the rerun finds both sides equal.
    const killedLate = await a.run(['sync', '--scope', 'personal'], { MEMDIR_TEST_CRASH_AT: 'sync-pushed' });
    expect(killedLate.code).toBe(-1);
    const [branch] = await branches();
    expect(Object.keys(await remoteFiles(branch!)).sort()).toEqual(['MEMORY.md', 'feedback_one.md', 'feedback_three.md', 'feedback_two.md']);
    const rerun = await a.run(['sync', '--scope', 'personal', '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(json(rerun).summary).toMatchObject({ unchanged: 4, pushed: 0, pulled: 0 });

    // B pulls, killed after each durable step of the write in turn; each time every file is whole (old or new).
    const wanted = memoryFiles(a.mem);
    writeTree(b.mem, { 'MEMORY.md': '- [Local](feedback_local.md) — only on b\n', 'feedback_local.md': topic('Local', 'only on b', 'feedback') });
    const oldB = memoryFiles(b.mem);
    const pristine = path.join(path.dirname(b.mem), 'memory-pristine');
    fs.cpSync(b.mem, pristine, { recursive: true });
    let crashes = 0;
    for (let step = 1; ; step++) {
      fs.rmSync(b.mem, { recursive: true, force: true });
      fs.cpSync(pristine, b.mem, { recursive: true });
      const killed = await b.run(['sync', '--scope', 'personal', 'pull'], { MEMDIR_TEST_CRASH_AFTER_STEP: String(step) });
      if (killed.code !== -1) break; // the run has fewer steps: it completed
      crashes++;
      for (const [file, text] of Object.entries(memoryFiles(b.mem))) {
        const versions = [oldB[file], wanted[file]].filter((v) => v !== undefined);
        // The index is merged on pull (B's own pointer kept), so its new version is checked by the rerun.
        if (file === 'MEMORY.md') expect(text === oldB[file] || (text.includes('(feedback_one.md)') && text.includes('(feedback_local.md)')), `step ${step}: ${file}`).toBe(true);
        else expect(versions, `step ${step}: ${file}`).toContain(text);
      }
      // The index is consistent at every step: each pointer leads to a file that is there.
      for (const [, target] of memoryFiles(b.mem)['MEMORY.md']!.matchAll(/\]\(([^)]+)\)/g)) expect(fs.existsSync(path.join(b.mem, target!)), `step ${step}: ${target}`).toBe(true);
      const again = await b.run(['sync', '--scope', 'personal', 'pull', '--json']);
      expect(again.code, again.stderr).toBe(0);
      const after = memoryFiles(b.mem);
      for (const file of Object.keys(wanted)) if (file !== 'MEMORY.md') expect(after[file], `step ${step}: ${file}`).toBe(wanted[file]);
      expect(after['feedback_local.md']).toBe(oldB['feedback_local.md']);
      for (const pointer of ['feedback_one.md', 'feedback_two.md', 'feedback_three.md', 'feedback_local.md']) expect(after['MEMORY.md']).toContain(`(${pointer})`);
      expect(fs.readdirSync(b.mem).filter((f) => f.startsWith('.memdir-tmp') || f.includes('.tmp'))).toEqual([]);
    }
    // Three topic files and the index: temps, the journal, then one rename each.
    expect(crashes).toBeGreaterThanOrEqual(8);
  });
});
