import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sanitizeProjectPath } from '../../src/core/paths.js';
import { waitForDetachedExtracts } from '../helpers/claude.js';
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

// One tree for every test of the file (tempDir's are removed after each test).
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-doctor-')));
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
          fix: 'memdir doctor --fix (merges it; memdir doctor --undo reverses)',
        },
        {
          id: 'split-store',
          severity: 'warning',
          message: `${sub} holds 1 memory of this project that Claude Code does not load (a session in the subdirectory ${app}/src wrote here)`,
          evidence: { folder: sub, reason: 'subdirectory', cwds: [path.join(app, 'src')], memories: ['project_from_sub.md'], index: false },
          fix: 'memdir doctor --fix (merges it; memdir doctor --undo reverses)',
        },
        {
          id: 'orphan',
          severity: 'warning',
          message: `${wt}: its project ${root}/work/app-feature no longer exists; it now looks to be ${app} (1 memory left behind)`,
          evidence: { folder: wt, cwds: [path.join(root, 'work', 'app-feature')], memories: ['project_login.md'], nowAt: app, matchedBy: 'worktree' },
          fix: `memdir doctor --move-orphan ${wt}`,
        },
        {
          id: 'index-loaded',
          severity: 'info',
          message: 'MEMORY.md: Claude Code loads 1 line, 51 characters',
          evidence: { file: path.join(dir, 'MEMORY.md'), lines: 1, characters: 51, cut: false, loadModel: 'latest' },
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
          fix: 'memdir doctor --fix (or any write: it completes the transaction)',
        },
        {
          id: 'stale-lock',
          severity: 'warning',
          message: `${dir}/.memdir/lock is held by process 999999998, which is gone`,
          evidence: { file: path.join(dir, '.memdir', 'lock'), pid: 999999998 },
          fix: "memdir doctor --fix (or any write: it takes a dead process's lock over)",
        },
        {
          id: 'stale-consolidate-lock',
          severity: 'warning',
          message: `${dir}/.consolidate-lock names process 999999999, which is gone: a dream run was interrupted`,
          evidence: { file: path.join(dir, '.consolidate-lock'), pid: 999999999 },
          fix: 'memdir doctor --fix (keeps the last consolidation time)',
        },
        NO_HOOKS,
      ],
    });
  });
});

describe('memdir doctor: settings, collisions, moved projects', () => {
  test('settings that look meant but are ignored: relative, committed, misspelled — each with its fix', async () => {
    const otherHome = path.join(root, 'home-settings');
    const project = await createRepo(path.join(root, 'settings proj'));
    const local = path.join(project, '.claude', 'settings.local.json');
    const committed = path.join(project, '.claude', 'settings.json');
    const user = path.join(otherHome, '.claude', 'settings.json');
    writeTree(root, {
      [path.relative(root, local)]: JSON.stringify({ autoMemoryDirectory: 'memory', autoMemoryDir: '~/m', autoMemoryEnabled: true }),
      [path.relative(root, committed)]: JSON.stringify({ autoMemoryDirectory: '/srv/team-memory' }),
      [path.relative(root, user)]: JSON.stringify({ automemoryDirectory: '~/x' }),
    });
    const before = snapshotTree(root);
    const result = await runMemdir(['doctor', '--json'], { cwd: project, env: env(otherHome) });
    expect(snapshotTree(root)).toEqual(before);
    const dir = path.join(otherHome, '.claude', 'projects', sanitizeProjectPath(project), 'memory');
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout)).toEqual({
      dir,
      projectRoot: project,
      counts: { error: 0, warning: 4, info: 3 },
      findings: [
        {
          id: 'memory-directory',
          severity: 'info',
          message: `memory directory ${dir} does not exist yet: no session has saved a memory here`,
          evidence: { dir, rule: 'default', source: null, file: null, projectRoot: project },
          fix: null,
        },
        {
          id: 'misspelled-setting',
          severity: 'warning',
          message: `"autoMemoryDir" in ${local} is not a Claude Code setting: did you mean "autoMemoryDirectory"?`,
          evidence: { file: local, key: 'autoMemoryDir', value: '~/m' },
          fix: `rename "autoMemoryDir" to "autoMemoryDirectory" in ${local}`,
        },
        {
          id: 'relative-setting',
          severity: 'warning',
          message: `autoMemoryDirectory "memory" in ${local} is not an absolute path: Claude Code ignores it`,
          evidence: { file: local, source: 'local', value: 'memory' },
          fix: `write an absolute path (or ~/…) as autoMemoryDirectory in ${local}`,
        },
        {
          id: 'committed-setting',
          severity: 'warning',
          message: `autoMemoryDirectory "/srv/team-memory" in the committed ${committed}: Claude Code honours it in a trusted workspace, memdir ignores it`,
          evidence: { file: committed, value: '/srv/team-memory', claudeCodeUses: '/srv/team-memory' },
          fix: 'move autoMemoryDirectory to .claude/settings.local.json, or run memdir with --trust-project-settings',
        },
        {
          id: 'misspelled-setting',
          severity: 'warning',
          message: `"automemoryDirectory" in ${user} is not a Claude Code setting: did you mean "autoMemoryDirectory"?`,
          evidence: { file: user, key: 'automemoryDirectory', value: '~/x' },
          fix: `rename "automemoryDirectory" to "autoMemoryDirectory" in ${user}`,
        },
        NO_CLAUDE,
        NO_HOOKS,
      ],
    });
    // A settings file that is not JSON is an error finding (exit 1), not a crash.
    fs.writeFileSync(local, '{ not json');
    const broken = await runMemdir(['doctor', '--json'], { cwd: project, env: env(otherHome) });
    const findings = (JSON.parse(broken.stdout) as { findings: { id: string; severity: string; evidence: unknown }[] }).findings;
    expect(broken.code).toBe(1);
    expect(findings.filter((f) => f.severity === 'error').map((f) => [f.id, f.evidence])).toEqual([
      ['settings-unreadable', { file: local }],
      ['hooks-unreadable', {}],
    ]);
  });

  test('two projects whose paths sanitize to one folder: an error, each memory listed under the project that wrote it', async () => {
    const { code, report } = await doctor(dashed);
    const folder = path.join(projects, sanitizeProjectPath(dashed));
    expect(code).toBe(1);
    expect(report?.counts).toEqual({ error: 1, warning: 0, info: 4 });
    expect(report?.findings.find((f) => (f as { id: string }).id === 'collision')).toEqual({
      id: 'collision',
      severity: 'error',
      message: `${folder} is shared by 2 different projects: each loads the other's memories`,
      evidence: {
        folder,
        projects: [
          { root: dashed, cwds: [dashed], sessions: 1, memories: ['project_two.md'] },
          { root: dotted, cwds: [dotted], sessions: 1, memories: ['project_one.md'] },
        ],
        memoriesOfNoKnownSession: ['project_three.md'],
      },
      fix: `give each project its own autoMemoryDirectory in its .claude/settings.local.json (${dashed}, ${dotted}), then move each project's memories there`,
    });
    // From the other project, the same folder, the same finding.
    const other = await doctor(dotted);
    expect([other.code, other.report?.findings.filter((f) => (f as { id: string }).id === 'collision').length]).toEqual([1, 1]);
  });

  test('a moved project: its old folder is found, with the command that brings the memory along', async () => {
    const { code, report } = await doctor(moved, ['--search-root', path.join(root, 'new')]);
    const folder = path.join(projects, sanitizeProjectPath(path.join(root, 'old', 'proj')));
    const dir = path.join(projects, sanitizeProjectPath(moved), 'memory');
    expect(code).toBe(0);
    expect(report?.findings).toEqual([
      {
        id: 'memory-directory',
        severity: 'info',
        message: `memory directory ${dir} does not exist yet: no session has saved a memory here`,
        evidence: { dir, rule: 'default', source: null, file: null, projectRoot: moved },
        fix: null,
      },
      NO_CLAUDE,
      {
        id: 'orphan',
        severity: 'warning',
        message: `${folder}: its project ${root}/old/proj no longer exists; it now looks to be ${moved} (1 memory left behind)`,
        evidence: { folder, cwds: [path.join(root, 'old', 'proj')], memories: ['project_old.md'], nowAt: moved, matchedBy: 'name' },
        fix: `memdir doctor --move-orphan ${folder}`,
      },
      NO_HOOKS,
    ]);
  });

  test('--all-projects: every collision and orphan, including a project gone for good', async () => {
    const { code, report } = await doctor(moved, ['--all-projects']);
    const gone = path.join(projects, sanitizeProjectPath(path.join(root, 'gone', 'thing')));
    expect(code).toBe(1);
    const found = report?.findings.filter((f) => ['collision', 'orphan'].includes((f as { id: string }).id)) as { id: string; evidence: { folder: string } }[];
    expect(found.map((f) => [f.id, path.basename(f.evidence.folder)])).toEqual([
      ['collision', sanitizeProjectPath(dashed)],
      ['orphan', sanitizeProjectPath(path.join(root, 'gone', 'thing'))],
      ['orphan', sanitizeProjectPath(path.join(root, 'old', 'proj'))],
      ['orphan', sanitizeProjectPath(path.join(root, 'work', 'app-feature'))],
    ]);
    expect(found[1]).toEqual({
      id: 'orphan',
      severity: 'warning',
      message: `${gone}: its project ${root}/gone/thing no longer exists (1 memory left behind)`,
      evidence: { folder: gone, cwds: [path.join(root, 'gone', 'thing')], memories: ['project_thing.md'], nowAt: null, matchedBy: null },
      fix: 'memdir doctor --all-projects --search-root DIR (the folder that holds your projects now)',
    });
  });

  test('the Claude Code on PATH answers --version (the real CLI); text output names each fix', async () => {
    const bin = path.join(repoRoot, 'node_modules', '.bin');
    const result = await runMemdir(['doctor'], { cwd: moved, env: { ...env(home), PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin` } });
    const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/@anthropic-ai/claude-code/package.json'), 'utf8')) as { version: string }).version;
    const dir = path.join(projects, sanitizeProjectPath(moved), 'memory');
    const oldFolder = path.join(projects, sanitizeProjectPath(path.join(root, 'old', 'proj')));
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout.split('\n')).toEqual([
      `info    memory directory ${dir} does not exist yet: no session has saved a memory here`,
      `info    Claude Code ${version} (${path.join(bin, 'claude')}): memdir finds and loads the memory directory as this release does (checked end to end)`,
      `warning ${oldFolder}: its project ${root}/old/proj no longer exists; it now looks to be ${moved} (1 memory left behind)`,
      `        fix: memdir doctor --move-orphan ${oldFolder}`,
      'info    no memdir hooks installed',
      '        fix: memdir hooks install',
      '0 errors, 1 warning',
      '',
    ]);
  });
});

describe('memdir doctor: what transcripts record is shown, not obeyed', () => {
  test('a recorded working directory with terminal escapes is printed with them escaped', async () => {
    const base = tempDir();
    const otherHome = path.join(base, 'home');
    const gone = path.join(base, 'gone\u001b[31mred\u001b[0m');
    const folder = path.join(otherHome, '.claude', 'projects', sanitizeProjectPath(gone));
    writeTree(folder, { 's-esc.jsonl': transcript(gone, 's-esc'), 'memory/project_esc.md': memory('Esc', 's-esc') });
    const here = path.join(base, 'here');
    fs.mkdirSync(here);
    const result = await runMemdir(['doctor', '--all-projects'], { cwd: here, env: env(otherHome) });
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain(`${base}/gone\\u001b[31mred\\u001b[0m no longer exists`);
  });
});

describe('memdir doctor: the Claude Code release', () => {
  test('a release memdir was not checked against: older is a warning with the update, newer says whose rules memdir follows', async () => {
    for (const [version, severity, says] of [
      ['2.0.14', 'warning', 'older than the releases memdir is checked against (2.1.197, 2.1.332); where it keeps memory may differ — update Claude Code'],
      ['2.2.3', 'info', "newer than the releases memdir is checked against (2.1.197, 2.1.332); memdir follows 2.1.332's rules"],
    ] as const) {
      const bin = tempDir();
      fs.writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\necho "${version} (Claude Code)"\n`, { mode: 0o755 });
      const result = await runMemdir(['doctor', '--json'], { cwd: moved, env: { ...env(home), PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin` } });
      const finding = (JSON.parse(result.stdout) as { findings: Array<{ id: string }> }).findings.find((f) => f.id === 'claude-code');
      expect(finding).toEqual({
        id: 'claude-code',
        severity,
        message: `Claude Code ${version} (${path.join(bin, 'claude')}): ${says}`,
        evidence: { path: path.join(bin, 'claude'), version, checkedReleases: ['2.1.197', '2.1.332'] },
        fix: severity === 'warning' ? 'npm i -g @anthropic-ai/claude-code@latest' : null,
      });
    }
  });
});

describe('memdir doctor: a live worktree', () => {
  test('a linked worktree whose sessions kept their own memory: a split store of the main checkout (its memory loaded twice or not at all)', async () => {
    const repo = await createRepo(path.join(root, 'twice'));
    const worktree = await addWorktree(repo, path.join(root, 'twice-wt'), 'twice-branch');
    const folder = path.join(projects, sanitizeProjectPath(worktree));
    writeTree(folder, { 's-tw.jsonl': transcript(worktree, 's-tw', 'twice-branch'), 'memory/project_tw.md': memory('Tw', 's-tw') });
    const { code, report } = await doctor(worktree);
    expect(code).toBe(0);
    expect(report?.findings.filter((f) => (f as { severity: string }).severity !== 'info')).toEqual([
      {
        id: 'split-store',
        severity: 'warning',
        message: `${folder} holds 1 memory of this project that Claude Code does not load (a session in the linked worktree ${worktree} wrote here)`,
        evidence: { folder, reason: 'worktree', cwds: [worktree], memories: ['project_tw.md'], index: false },
        fix: 'memdir doctor --fix (merges it; memdir doctor --undo reverses)',
      },
    ]);
  });
});

describe('memdir doctor: hooks', () => {
  const prefix = `${process.execPath} ${path.join(repoRoot, 'bin', 'memdir.cjs')}`;
  const EVENTS = [
    ['SessionStart', 'context'],
    ['UserPromptSubmit', 'recall'],
    ['PreToolUse', 'guard'],
    ['Stop', 'extract'],
    ['Stop', 'session'],
    ['SessionEnd', 'dream'],
  ] as const;

  /** A project with memories (so each hook has work to do) and every memdir hook installed. */
  async function hooked(name: string) {
    const project = await createRepo(path.join(root, name));
    const folder = path.join(projects, sanitizeProjectPath(project));
    writeTree(folder, {
      // Six sessions and no consolidation yet: a consolidation is due, so a SessionEnd hook that ignored the probe would run one.
      ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`s-earlier-${i}.jsonl`, transcript(project, `s-earlier-${i}`)])),
      's-hooked.jsonl': transcript(project, 's-hooked'),
      'memory/MEMORY.md': '- [Deploy](project_deploy.md) — deploys go out on Tuesdays\n',
      'memory/project_deploy.md': memory('Deploy', 's-hooked'),
    });
    const installed = await runMemdir(['hooks', 'install', '--with-context', '--command', prefix], { cwd: project, env: env(home) });
    expect(installed.code, installed.stderr).toBe(0);
    return { project, dir: path.join(folder, 'memory'), settings: path.join(project, '.claude', 'settings.local.json') };
  }

  test("every memdir hook run as Claude Code and git run it, its stdin the event's JSON; nothing written", async () => {
    const { project, dir, settings } = await hooked('hooked');
    // A dead writer's lock and an interrupted transaction: a hook that settled the directory would write.
    writeTree(dir, { '.memdir/lock': JSON.stringify({ pid: 999999997, time: 1, token: 'x' }), '.memdir/journal.json': '[]' });
    const gate = await runMemdir(['dream', '--status', '--json'], { cwd: project, env: env(home) });
    expect(JSON.parse(gate.stdout).gate.due).toBe(true);
    const { code, report } = await doctor(project);
    expect(code).toBe(0);
    const ran = (hook: string, command: string, file: string, runner = 'Claude Code', limitMs = 600_000) => ({
      id: 'hook',
      severity: 'info',
      message: expect.stringMatching(new RegExp(`^${reEscape(`${hook}: ${command} ran as ${runner} runs it (exit 0, `)}\\d+ ms\\)$`)),
      evidence: { file, command, found: expect.any(String), ran: 'ok', exitCode: 0, ms: expect.any(Number), limitMs },
      fix: null,
    });
    expect(report?.findings.filter((f) => (f as { id: string }).id.startsWith('hook'))).toEqual([
      ran('git pre-commit (git)', `${prefix} lint --staged`, path.join(project, '.git', 'hooks', 'pre-commit'), 'git', 60_000),
      ...EVENTS.map(([event, sub]) => ran(`Claude Code ${event} (local)`, `${prefix} ${sub} --hook`, settings, 'Claude Code', event === 'SessionEnd' ? 1_500 : 600_000)),
    ]);
    // The probe is what keeps it read-only: the same Stop input without it starts an extraction, which logs.
    const input = JSON.stringify({ session_id: 's-probe', transcript_path: path.join(root, 'empty.jsonl'), cwd: project, hook_event_name: 'Stop', stop_hook_active: false });
    fs.writeFileSync(path.join(root, 'empty.jsonl'), '');
    const real = await runMemdir(['extract', '--hook'], { cwd: project, env: env(home), input });
    expect(real.code, real.stderr).toBe(0);
    await waitForDetachedExtracts(dir);
    expect(fs.existsSync(path.join(dir, '.memdir', 'extract.log'))).toBe(true);
  });

  test("a hook that fails, prints its one line, or outlasts Claude Code's limit is an error; a committed command of a clone is never run", async () => {
    const { project, settings } = await hooked('hooked-broken');
    const installedText = fs.readFileSync(settings, 'utf8');
    // With --fix (nothing to repair here), the hooks are run on the directory as the repairs leave it.
    const fixed = await doctor(project, ['--fix']);
    expect((fixed.report?.findings ?? []).filter((f) => (f as { id: string }).id === 'hook').map((f) => (f as { evidence: { ran: unknown } }).evidence.ran)).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
    ]);
    // Exit 2: a flag this memdir does not know.
    fs.writeFileSync(settings, installedText.replace('recall --hook', 'recall --hook --bogus'));
    const bogus = await doctor(project);
    expect(bogus.code).toBe(1);
    expect(bogus.report?.findings.filter((f) => (f as { severity: string }).severity === 'error')).toEqual([
      {
        id: 'hook-failed',
        severity: 'error',
        message: `Claude Code UserPromptSubmit (local): ${prefix} recall --hook --bogus failed when run as Claude Code runs it: memdir: Unknown argument: bogus`,
        evidence: {
          file: settings,
          command: `${prefix} recall --hook --bogus`,
          found: expect.any(String),
          ran: 'exit',
          exitCode: 2,
          ms: expect.any(Number),
          limitMs: 600_000,
          problem: 'memdir: Unknown argument: bogus',
        },
        fix: 'memdir hooks install (or fix the command, or the configuration the line names)',
      },
    ]);
    // Exit 0 with one stderr line: the hooks never block the agent, so their failure is that line.
    fs.writeFileSync(settings, installedText);
    fs.writeFileSync(path.join(project, 'memdir.config.json'), '{ not json');
    const config = await doctor(project);
    fs.rmSync(path.join(project, 'memdir.config.json'));
    const failed = config.report?.findings.filter((f) => (f as { id: string }).id === 'hook-failed') as { message: string; evidence: { ran: string; exitCode: number } }[];
    expect(failed.map((f) => [f.evidence.ran, f.evidence.exitCode])).toEqual([
      ['stderr', 0],
      ['stderr', 0],
      ['stderr', 0],
      ['stderr', 0],
      ['stderr', 0],
    ]);
    expect(failed.map((f) => f.message)).toEqual(expect.arrayContaining([expect.stringContaining('memdir extract hook skipped: ')]));
    // Claude Code gives SessionEnd hooks 1.5 s unless told otherwise; here a millisecond.
    const slow = await doctor(project, [], { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '1' });
    expect(slow.report?.findings.filter((f) => (f as { severity: string }).severity === 'error')).toEqual([
      {
        id: 'hook-failed',
        severity: 'error',
        message: `Claude Code SessionEnd (local): ${prefix} dream --hook failed when run as Claude Code runs it: too slow: not done after 0.001 s`,
        evidence: {
          file: settings,
          command: `${prefix} dream --hook`,
          found: expect.any(String),
          ran: 'too-slow',
          exitCode: null,
          ms: expect.any(Number),
          limitMs: 1,
          problem: 'too slow: not done after 0.001 s',
        },
        fix: 'memdir doctor --debug for where the time goes; a hook Claude Code stops does nothing',
      },
    ]);
    // The same hook in the committed settings, behind a command of the clone's choosing: listed, never run.
    const canary = path.join(root, 'canary');
    fs.writeFileSync(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${canary}; ${prefix} context --hook` }] }] } }),
    );
    const committed = await doctor(project);
    expect(committed.report?.findings.filter((f) => (f as { message: string }).message.includes('(project)')).map((f) => (f as { evidence: { ran: unknown } }).evidence.ran)).toEqual([null]);
    expect(fs.existsSync(canary)).toBe(false);
    fs.rmSync(path.join(project, '.claude', 'settings.json'));
    // A memdir program that is not this memdir (nor a copy of its release) may not know the probe: only the hooks that only read are run.
    const marks = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-doctor-marks-'));
    const other = path.join(marks, 'other-memdir', 'bin', 'memdir.cjs');
    fs.mkdirSync(path.dirname(other), { recursive: true });
    fs.writeFileSync(other, `require('node:fs').writeFileSync(require('node:path').join(${JSON.stringify(marks)}, process.argv[2]), '');\n`);
    fs.writeFileSync(path.join(marks, 'other-memdir', 'package.json'), JSON.stringify({ name: 'memdir', version: '0.0.1' }));
    fs.writeFileSync(settings, installedText.replaceAll(prefix, `${process.execPath} ${other}`));
    const foreign = await doctor(project);
    expect(((foreign.report?.findings ?? []).filter((f) => (f as { id: string }).id === 'hook') as { evidence: { ran: unknown } }[]).map((f) => f.evidence.ran)).toEqual([
      'ok',
      'ok',
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(fs.readdirSync(marks).sort()).toEqual(['context', 'other-memdir']);
    fs.rmSync(marks, { recursive: true, force: true });
  });
});

function reEscape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('memdir doctor: where a moved project lives now', () => {
  /** The first lines of a real 2.1.332 transcript (its git status lists the session's recent commits), for `cwd` and `commit`. */
  const LATEST = fs.readFileSync(path.join(repoRoot, 'test/fixtures/claude-code-2.1.332/session-git-status.jsonl'), 'utf8');
  const latestTranscript = (cwd: string, commit: string) => LATEST.replaceAll('/home/dev/app', cwd).replaceAll('5ee87e9 initial', `${commit} initial`);

  test('by the commits its sessions recorded, under the usual roots (where the other projects are); several clones of that history: the one here', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-doctor-moved-')));
    const ownHome = path.join(base, 'home');
    const ownProjects = path.join(ownHome, '.claude', 'projects');
    const usual = path.join(base, 'code');
    // A project of the user's, recorded: its parent is a usual root.
    const kept = await createRepo(path.join(usual, 'kept'));
    const gone = path.join(base, 'elsewhere', 'orig_name');
    const repo = await createRepo(gone);
    // A history of its own (two repositories made in the same second with the same file would share their first commit).
    fs.writeFileSync(path.join(repo, 'app.txt'), `${gone}\n`);
    await simpleGit(repo).add('app.txt').commit('app');
    const commit = (await simpleGit(repo).revparse(['--short=7', 'HEAD'])).trim();
    writeTree(ownProjects, {
      [`${sanitizeProjectPath(kept)}/s-kept.jsonl`]: transcript(kept, 's-kept'),
      [`${sanitizeProjectPath(gone)}/s-gone.jsonl`]: latestTranscript(gone, commit),
      [`${sanitizeProjectPath(gone)}/memory/MEMORY.md`]: '- [Gone](project_gone.md) — gone\n',
      [`${sanitizeProjectPath(gone)}/memory/project_gone.md`]: memory('Gone', 's-gone'),
    });
    const now = path.join(usual, 'new name');
    fs.renameSync(gone, now);
    fs.rmSync(path.join(base, 'elsewhere'), { recursive: true });
    const folder = path.join(ownProjects, sanitizeProjectPath(gone));
    const run = async (cwd: string, args: string[] = []) => {
      const result = await runMemdir(['doctor', '--json', ...args], { cwd, env: env(ownHome) });
      expect(result.stderr).toBe('');
      return (JSON.parse(result.stdout) as { findings: { id: string; evidence: Record<string, unknown>; fix: string | null }[] }).findings.filter((f) => f.id === 'orphan');
    };
    const orphan = (nowAt: string | null, matchedBy: string | null, fix: string) => ({ folder, cwds: [gone], nowAt, matchedBy, fix });
    const shown = (found: Awaited<ReturnType<typeof run>>) =>
      found.map((f) => ({ folder: f.evidence.folder, cwds: f.evidence.cwds, nowAt: f.evidence.nowAt, matchedBy: f.evidence.matchedBy, fix: f.fix }));
    // A new name in another folder: found by its history alone (a loose object here).
    expect(shown(await run(now))).toEqual([orphan(now, `commit ${commit}`, `memdir doctor --move-orphan ${folder}`)]);
    expect(shown(await run(kept, ['--all-projects']))).toEqual([orphan(now, `commit ${commit}`, `cd '${now}' && memdir doctor --move-orphan ${folder}`)]);
    // Cloned again under another name (the same history): from one of them, that one; from elsewhere, neither.
    const clone = path.join(usual, 'clone');
    await simpleGit(usual).clone(now, clone);
    expect(shown(await run(clone))).toEqual([orphan(clone, `commit ${commit}, remote ${now.toLowerCase()}`, `memdir doctor --move-orphan ${folder}`)]);
    expect(shown(await run(kept, ['--all-projects']))).toEqual([orphan(null, null, 'memdir doctor --all-projects --search-root DIR (the folder that holds your projects now)')]);
    fs.rmSync(base, { recursive: true, force: true });
  });
});

describe('memdir doctor: what loads', () => {
  test('bad input: one line naming the problem, exit 2, nothing changed', async () => {
    const before = snapshotTree(root);
    for (const [args, stderr] of [
      [['--dir', '/'], 'memdir: --dir: memory directory "/" is a file-system root or too short\n'],
      [['--fix', '--undo'], 'memdir: --undo goes alone: not with --fix or --move-orphan\n'],
      [['--to', app], 'memdir: --to names where --move-orphan or --undo goes; give one of them\n'],
      [['--undo', '--to', '/no/such/project'], 'memdir: --to /no/such/project: not a folder; name the project the memory goes to\n'],
    ] as const) {
      const result = await runMemdir(['doctor', ...args], { cwd: app, env: env(home) });
      expect([result.code, result.stderr, result.stdout], args.join(' ')).toEqual([2, stderr, '']);
    }
    expect(snapshotTree(root)).toEqual(before);
  });

  test('--dir: an index past 200 lines is cut, a team/ without index, a transaction set aside (error, exit 1)', async () => {
    const dir = path.join(root, 'loads', 'memory');
    const lines = Array.from({ length: 250 }, (_, i) => `- [Note ${i}](project_note_${i}.md) — note ${i}`);
    writeTree(dir, {
      'MEMORY.md': `${lines.join('\n')}\n`,
      ...Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`project_note_${i}.md`, memory(`Note ${i}`)])),
      'team/project_shared.md': memory('Shared'),
      '.memdir/journal.failed.json': '[]',
    });
    const { code, report } = await doctor(app, ['--dir', dir]);
    expect(code).toBe(1);
    const shown = report?.findings.filter((f) => !['claude-code', 'hooks', 'split-store', 'orphan'].includes((f as { id: string }).id));
    const loaded = lines.slice(0, 200).join('\n').length;
    expect(shown).toEqual([
      { id: 'memory-directory', severity: 'info', message: `memory directory ${dir} (from --dir)`, evidence: { dir, rule: 'flag', source: null, file: null, projectRoot: app }, fix: null },
      {
        id: 'index-loaded',
        severity: 'info',
        message: `MEMORY.md: Claude Code loads 200 lines, ${loaded} characters`,
        evidence: { file: path.join(dir, 'MEMORY.md'), lines: 200, characters: loaded, cut: true, loadModel: 'latest' },
        fix: null,
      },
      {
        id: 'index-cut',
        severity: 'warning',
        message: 'MEMORY.md is cut at line 201 (the 200-line limit): 50 lines are not loaded',
        evidence: { file: path.join(dir, 'MEMORY.md'), firstCutLine: 201, cutBy: 'lines', lines: 250 },
        fix: 'memdir refactor',
      },
      {
        id: 'unreachable-topic',
        severity: 'warning',
        message: '50 topic files no loaded pointer reaches: the agent never learns they exist',
        evidence: { dir, files: Array.from({ length: 50 }, (_, i) => `project_note_${i + 200}.md`).sort() },
        fix: 'memdir lint --fix (adds missing pointers); memdir refactor when the index is full',
      },
      { id: 'team-index', severity: 'warning', message: 'team/ has 1 topic file but no MEMORY.md', evidence: { dir: path.join(dir, 'team'), topics: 1 }, fix: 'memdir sync' },
      {
        id: 'failed-journal',
        severity: 'error',
        message: `${dir}/.memdir/journal.failed.json: a transaction could not be completed and was set aside`,
        evidence: { file: path.join(dir, '.memdir', 'journal.failed.json') },
        fix: `read ${dir}/.memdir/journal.failed.json: it lists each rename (temp → file) left to do; do them by hand, then delete it`,
      },
    ]);
  });
});

describe('memdir doctor --fix and --undo', () => {
  test('a split store merges into the canonical directory (identical dropped, different kept as name.from-<folder>.md, indexes merged); --undo restores it byte for byte', async () => {
    const project = await createRepo(path.join(root, 'fix me'));
    fs.mkdirSync(path.join(project, 'sub'));
    const canonical = path.join(projects, sanitizeProjectPath(project), 'memory');
    const subFolder = sanitizeProjectPath(path.join(project, 'sub'));
    const split = path.join(projects, subFolder, 'memory');
    const latin1 = Buffer.from('---\nname: Caf\xe9\n---\n', 'latin1');
    writeTree(projects, {
      [`${sanitizeProjectPath(project)}/s-1.jsonl`]: transcript(project, 's-1'),
      [`${sanitizeProjectPath(project)}/memory/MEMORY.md`]: '# Memory\n\n- [A](project_a.md) — the canonical A\n- [Same](project_same.md) — same in both\n',
      [`${sanitizeProjectPath(project)}/memory/project_a.md`]: memory('A', 's-1'),
      [`${sanitizeProjectPath(project)}/memory/project_same.md`]: memory('Same', 's-1'),
      [`${subFolder}/s-2.jsonl`]: transcript(path.join(project, 'sub'), 's-2'),
      [`${subFolder}/memory/MEMORY.md`]: '- [A elsewhere](project_a.md) — the other A\n- [Same](project_same.md) — same in both\n- [New](project_new.md) — only here\n',
      [`${subFolder}/memory/project_a.md`]: memory('A, written from sub', 's-2'),
      [`${subFolder}/memory/project_same.md`]: memory('Same', 's-1'),
      [`${subFolder}/memory/project_new.md`]: memory('New', 's-2'),
      [`${subFolder}/memory/project_latin1.md`]: latin1,
    });
    fs.symlinkSync(path.join(root, 'home-settings', '.claude', 'settings.json'), path.join(split, 'project_link.md'));
    const memoryFiles = () => Object.fromEntries(Object.entries(snapshotTree(projects)).filter(([file]) => !file.includes('.memdir')));
    const before = memoryFiles();

    const fixed = await runMemdir(['doctor', '--fix', '--json'], { cwd: project, env: env(home) });
    expect(fixed.stderr).toBe('');
    const report = JSON.parse(fixed.stdout) as { merged: unknown[]; findings: { id: string; evidence: Record<string, unknown> }[] };
    expect(report.merged).toEqual([
      {
        from: split,
        into: canonical,
        moved: ['project_new.md'],
        dropped: ['project_same.md'],
        renamed: [{ from: 'project_a.md', to: `project_a.from-${subFolder}.md` }],
        left: ['project_latin1.md', 'project_link.md'],
        pointersAdded: 2,
        record: expect.stringMatching(new RegExp(`^${canonical.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.memdir/doctor/.+\\.json$`)),
      },
    ]);
    expect(fixed.code).toBe(0);
    expect(fs.readFileSync(path.join(canonical, 'MEMORY.md'), 'utf8')).toBe(
      `# Memory\n\n- [A](project_a.md) — the canonical A\n- [Same](project_same.md) — same in both\n- [A elsewhere](project_a.from-${subFolder}.md) — the other A\n- [New](project_new.md) — only here\n`,
    );
    expect(fs.readFileSync(path.join(canonical, `project_a.from-${subFolder}.md`), 'utf8')).toBe(memory('A, written from sub', 's-2'));
    expect(fs.readFileSync(path.join(canonical, 'project_new.md'), 'utf8')).toBe(memory('New', 's-2'));
    expect(fs.readdirSync(split)).toEqual(['.memdir', 'project_latin1.md', 'project_link.md']);
    // What it could not merge is still reported.
    expect(report.findings.filter((f) => f.id === 'split-store').map((f) => f.evidence.memories)).toEqual([['project_latin1.md', 'project_link.md']]);

    const undone = await runMemdir(['doctor', '--undo'], { cwd: project, env: env(home) });
    expect([undone.code, undone.stderr, undone.stdout]).toEqual([0, '', `undone: 7 files of ${canonical} and ${split} restored\n`]);
    expect(memoryFiles()).toEqual(before);
    const again = await runMemdir(['doctor', '--undo'], { cwd: project, env: env(home) });
    expect([again.code, again.stderr]).toEqual([1, `memdir: no doctor --fix to undo in ${canonical}\n`]);
  });

  test("--fix on the first project: both split stores merged (pointers made for files no index named), the dead lock taken over, the journal completed; --move-orphan brings the deleted worktree's memory; --undo reverses each", async () => {
    const dir = path.join(appFolder, 'memory');
    const up = path.join(projects, sanitizeProjectPath(path.join(root, 'work')));
    const sub = path.join(projects, sanitizeProjectPath(path.join(app, 'src')));
    const wt = path.join(projects, sanitizeProjectPath(path.join(root, 'work', 'app-feature')));
    const memoryFiles = () => Object.fromEntries(Object.entries(snapshotTree(projects)).filter(([file]) => !file.includes('.memdir') && !file.endsWith('.consolidate-lock')));
    const before = memoryFiles();
    const lockTime = fs.statSync(path.join(dir, '.consolidate-lock')).mtimeMs;
    const fixed = await runMemdir(['doctor', '--fix', '--json'], { cwd: app, env: env(home) });
    expect(fixed.stderr).toBe('');
    const report = JSON.parse(fixed.stdout) as { merged: { from: string; moved: string[]; pointersAdded: number }[]; swept: string[]; findings: { id: string }[] };
    expect(fixed.code).toBe(0);
    expect(report.merged.map((m) => [m.from, m.moved, m.pointersAdded])).toEqual([
      [path.join(up, 'memory'), ['feedback_up.md'], 1],
      [path.join(sub, 'memory'), ['project_from_sub.md'], 1],
    ]);
    expect(report.swept).toEqual([path.join(dir, '.memdir', 'journal.json'), path.join(dir, '.memdir', 'lock'), path.join(dir, '.consolidate-lock')]);
    expect(report.findings.filter((f) => f.id !== 'memory-directory' && f.id !== 'claude-code' && f.id !== 'hooks').map((f) => f.id)).toEqual(['orphan', 'index-loaded', 'unreachable-topic']);
    // Emptied, its time kept (to the file system's precision through utimes).
    expect(fs.readFileSync(path.join(dir, '.consolidate-lock'), 'utf8')).toBe('');
    expect(Math.abs(fs.statSync(path.join(dir, '.consolidate-lock')).mtimeMs - lockTime)).toBeLessThan(1);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe(
      '- [Deploy](project_deploy.md) — how a release ships\n- [Up](feedback_up.md) — Up for the doctor fixture\n- [From sub](project_from_sub.md) — From sub for the doctor fixture\n',
    );

    // From anywhere, naming the project it goes to (the issue's "--move-orphan OLD NEW").
    const moved = await runMemdir(['doctor', '--move-orphan', path.join(root, 'work', 'app-feature'), '--to', app], { cwd: root, env: env(home) });
    expect([moved.code, moved.stderr, moved.stdout.split('\n')[0]]).toEqual([0, '', `merged ${wt}/memory into ${dir}: 1 moved, 0 identical dropped, 0 kept under another name`]);
    expect(fs.existsSync(path.join(dir, 'project_login.md'))).toBe(true);
    // Not an orphan: refused, nothing moved. Unknown: a usage error.
    const live = await runMemdir(['doctor', '--move-orphan', sub], { cwd: app, env: env(home) });
    expect([live.code, live.stderr]).toEqual([1, `memdir: ${sub} is not an orphan: ${path.join(app, 'src')} still exists; nothing moved\n`]);
    const unknown = await runMemdir(['doctor', '--move-orphan', '/no/such/project'], { cwd: app, env: env(home) });
    expect([unknown.code, unknown.stderr]).toEqual([2, 'memdir: --move-orphan /no/such/project: no folder with memory of that name or project under the projects folder\n']);

    for (let i = 0; i < 3; i++) {
      const undone = await runMemdir(['doctor', '--undo', ...(i === 0 ? ['--to', app] : [])], { cwd: i === 0 ? root : app, env: env(home) });
      expect(undone.code, undone.stderr).toBe(0);
    }
    expect(memoryFiles()).toEqual(before);
  });
});
