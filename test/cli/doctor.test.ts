import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { beforeAll, describe, expect, test } from 'vitest';
import { sanitizeProjectPath } from '../../src/core/paths.js';
import { addWorktree, createRepo } from '../helpers/git-repo.js';
import { cleanEnv, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

/**
 * `~/.claude/projects` trees in the shape Claude Code records them: transcripts named by session id
 * under the sanitized working directory, whose lines carry `cwd`, `sessionId` and `gitBranch`
 * (the first lines of a real 2.1.197 transcript, rewritten); memory files whose frontmatter names
 * the session that wrote them (`originSessionId`).
 */
const REAL = fs.readFileSync(path.join(repoRoot, 'test/fixtures/shared/claude-code-2.1.197/session-writes-memory.jsonl'), 'utf8').split('\n').slice(0, 6);

function transcript(cwd: string, sessionId: string, branch = 'master'): string {
  return `${REAL.map((line) => {
    const entry = JSON.parse(line) as Record<string, unknown>;
    if ('sessionId' in entry) entry.sessionId = sessionId;
    if ('cwd' in entry) entry.cwd = cwd;
    if ('gitBranch' in entry) entry.gitBranch = branch;
    return JSON.stringify(entry);
  }).join('\n')}\n`;
}

function memory(name: string, session?: string): string {
  return `---\nname: ${name}\ndescription: ${name} for the doctor fixture\ntype: project\n${session ? `originSessionId: ${session}\n` : ''}---\n\n${name}.\n`;
}

/** Run with a PATH that holds node and git but no `claude`: the Claude Code finding is then fixed. */
function env(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...cleanEnv(home, extra), PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(':') };
}

const NO_CLAUDE = { id: 'claude-code', severity: 'info', message: 'Claude Code (claude) is not on PATH', evidence: { path: null, version: null }, fix: null };
const NO_HOOKS = { id: 'hooks', severity: 'info', message: 'no memdir hooks installed', evidence: { hooks: [] }, fix: 'memdir hooks install' };

let root: string;
let home: string;
let projects: string;
/** A repository whose path has an underscore, a dot, a space and CJK characters. */
let app: string;
let appFolder: string;
let x: string;
let dotted: string;
let dashed: string;
let moved: string;

beforeAll(async () => {
  root = tempDir();
  home = path.join(root, 'home');
  projects = path.join(home, '.claude', 'projects');
  app = await createRepo(path.join(root, 'work', 'my_app.v2 空间'));
  await simpleGit(app).addRemote('origin', 'git@github.com:acme/my-app.git');
  appFolder = path.join(projects, sanitizeProjectPath(app));
  fs.mkdirSync(path.join(app, 'src'));
  fs.mkdirSync(path.join(app, 'docs'));
  // A worktree deleted with rm -rf: git still lists it; its sessions kept their own folder and memory.
  const worktree = await addWorktree(app, path.join(root, 'work', 'app-feature'), 'feature-login');
  fs.rmSync(worktree, { recursive: true, force: true });
  writeTree(projects, {
    [`${sanitizeProjectPath(app)}/s-main.jsonl`]: transcript(app, 's-main'),
    [`${sanitizeProjectPath(app)}/memory/MEMORY.md`]: '- [Deploy](project_deploy.md) — how a release ships\n',
    [`${sanitizeProjectPath(app)}/memory/project_deploy.md`]: memory('Deploy', 's-main'),
    [`${sanitizeProjectPath(app)}/memory/project_unlisted.md`]: memory('Unlisted'),
    [`${sanitizeProjectPath(app)}/memory/.consolidate-lock`]: '999999999',
    [`${sanitizeProjectPath(app)}/memory/.memdir/lock`]: JSON.stringify({ pid: 999999998, time: 1, token: 'x' }),
    [`${sanitizeProjectPath(app)}/memory/.memdir/journal.json`]: '[]',
    // A session started in a subdirectory, written under the subdirectory's folder.
    [`${sanitizeProjectPath(path.join(app, 'src'))}/s-sub.jsonl`]: transcript(path.join(app, 'src'), 's-sub'),
    [`${sanitizeProjectPath(path.join(app, 'src'))}/memory/project_from_sub.md`]: memory('From sub', 's-sub'),
    // A session of this project that wrote into its parent folder's store.
    [`${sanitizeProjectPath(path.join(root, 'work'))}/s-up.jsonl`]: transcript(app, 's-up'),
    [`${sanitizeProjectPath(path.join(root, 'work'))}/memory/feedback_up.md`]: memory('Up', 's-up'),
    [`${sanitizeProjectPath(worktree)}/s-wt.jsonl`]: transcript(worktree, 's-wt', 'feature-login'),
    [`${sanitizeProjectPath(worktree)}/memory/project_login.md`]: memory('Login', 's-wt'),
    // A session in a folder without any memory is no finding.
    [`${sanitizeProjectPath(path.join(app, 'docs'))}/s-docs.jsonl`]: transcript(path.join(app, 'docs'), 's-docs'),
  });

  // Two projects whose paths sanitize to one folder name.
  x = path.join(root, 'x');
  dotted = await createRepo(path.join(x, 'my.app'));
  dashed = await createRepo(path.join(x, 'my-app'));
  expect(sanitizeProjectPath(dotted)).toBe(sanitizeProjectPath(dashed));
  const shared = sanitizeProjectPath(dashed);
  writeTree(projects, {
    [`${shared}/s-dot.jsonl`]: transcript(dotted, 's-dot'),
    [`${shared}/s-dash.jsonl`]: transcript(dashed, 's-dash'),
    [`${shared}/memory/MEMORY.md`]: '- [One](project_one.md) — one\n- [Two](project_two.md) — two\n- [Three](project_three.md) — three\n',
    [`${shared}/memory/project_one.md`]: memory('One', 's-dot'),
    [`${shared}/memory/project_two.md`]: memory('Two', 's-dash'),
    [`${shared}/memory/project_three.md`]: memory('Three'),
  });

  // A project moved from old/proj to new/proj: its old folder's sessions name a path that is gone.
  moved = await createRepo(path.join(root, 'new', 'proj'));
  const gone = path.join(root, 'old', 'proj');
  fs.mkdirSync(path.join(root, 'old'));
  writeTree(projects, {
    [`${sanitizeProjectPath(gone)}/s-old.jsonl`]: transcript(gone, 's-old'),
    [`${sanitizeProjectPath(gone)}/memory/MEMORY.md`]: '- [Old](project_old.md) — old\n',
    [`${sanitizeProjectPath(gone)}/memory/project_old.md`]: memory('Old', 's-old'),
    // Gone for good: nothing of that name anywhere.
    [`${sanitizeProjectPath(path.join(root, 'gone', 'thing'))}/s-gone.jsonl`]: transcript(path.join(root, 'gone', 'thing'), 's-gone'),
    [`${sanitizeProjectPath(path.join(root, 'gone', 'thing'))}/memory/project_thing.md`]: memory('Thing'),
  });
});

async function doctor(cwd: string, args: string[] = [], extra: NodeJS.ProcessEnv = {}) {
  const before = snapshotTree(root);
  const result = await runMemdir(['doctor', '--json', ...args], { cwd, env: env(home, extra) });
  // Read-only: not one byte changes.
  expect(snapshotTree(root)).toEqual(before);
  return { code: result.code, stderr: result.stderr, report: result.stdout ? (JSON.parse(result.stdout) as { dir: string; projectRoot: string; findings: unknown[]; counts: unknown }) : undefined };
}

describe('memdir doctor', () => {
  test('a CJK/space/dot/underscore project: split stores (subdirectory, ancestor), a deleted worktree, what loads, stale locks, a journal', async () => {
    const { code, report } = await doctor(app);
    const dir = path.join(appFolder, 'memory');
    const sub = path.join(projects, sanitizeProjectPath(path.join(app, 'src')));
    const up = path.join(projects, sanitizeProjectPath(path.join(root, 'work')));
    const wt = path.join(projects, sanitizeProjectPath(path.join(root, 'work', 'app-feature')));
    expect(code).toBe(0);
    expect(report).toEqual({
      dir,
      projectRoot: app,
      counts: { error: 0, warning: 7, info: 4 },
      findings: [
        {
          id: 'memory-directory',
          severity: 'info',
          message: `memory directory ${dir} (default location for the project at ${app})`,
          evidence: { dir, rule: 'default', source: null, file: null, projectRoot: app },
          fix: null,
        },
        NO_CLAUDE,
        {
          id: 'split-store',
          severity: 'warning',
          message: `${up} holds 1 memory of this project that Claude Code does not load (a session in ${app} wrote into an ancestor's folder)`,
          evidence: { folder: up, reason: 'ancestor', cwds: [app], memories: ['feedback_up.md'], index: false },
          fix: `diff -r ${up}/memory ${dir}; move what is missing into ${dir}, then memdir lint --fix`,
        },
        {
          id: 'split-store',
          severity: 'warning',
          message: `${sub} holds 1 memory of this project that Claude Code does not load (a session in the subdirectory ${app}/src wrote here)`,
          evidence: { folder: sub, reason: 'subdirectory', cwds: [path.join(app, 'src')], memories: ['project_from_sub.md'], index: false },
          fix: `diff -r ${sub}/memory ${dir}; move what is missing into ${dir}, then memdir lint --fix`,
        },
        {
          id: 'orphan',
          severity: 'warning',
          message: `${wt}: its project ${root}/work/app-feature no longer exists; it now looks to be ${app} (1 memory left behind)`,
          evidence: { folder: wt, cwds: [path.join(root, 'work', 'app-feature')], memories: ['project_login.md'], nowAt: app, matchedBy: 'worktree' },
          fix: `diff -r ${wt}/memory ${dir}; move the memories into ${dir}, then memdir lint --fix`,
        },
        {
          id: 'index-loaded',
          severity: 'info',
          message: 'MEMORY.md: Claude Code loads 1 line, 51 characters',
          evidence: { file: path.join(dir, 'MEMORY.md'), lines: 1, characters: 51, cut: false },
          fix: null,
        },
        {
          id: 'unreachable-topic',
          severity: 'warning',
          message: '1 topic file no loaded pointer reaches: the agent never learns it exists',
          evidence: { dir, files: ['project_unlisted.md'] },
          fix: 'memdir lint --fix (adds missing pointers); memdir refactor when the index is full',
        },
        {
          id: 'interrupted-journal',
          severity: 'warning',
          message: `${dir}/.memdir/journal.json: a transaction was interrupted; the next write completes it`,
          evidence: { file: path.join(dir, '.memdir', 'journal.json') },
          fix: 'memdir lint --fix',
        },
        {
          id: 'stale-lock',
          severity: 'warning',
          message: `${dir}/.memdir/lock is held by process 999999998, which is gone`,
          evidence: { file: path.join(dir, '.memdir', 'lock'), pid: 999999998 },
          fix: "memdir lint --fix (the next write takes a dead process's lock over)",
        },
        {
          id: 'stale-consolidate-lock',
          severity: 'warning',
          message: `${dir}/.consolidate-lock names process 999999999, which is gone: a dream run was interrupted`,
          evidence: { file: path.join(dir, '.consolidate-lock'), pid: 999999999 },
          fix: 'memdir dream --force',
        },
        NO_HOOKS,
      ],
    });
  });
});
