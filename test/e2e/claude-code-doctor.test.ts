import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sanitizeProjectPath } from '../../src/core/paths.js';
import { loadedMemory } from '../helpers/agent-request.js';
import { eventInput } from '../../src/doctor/hooks.js';
import { claudeReleases, memdirOnPath, runClaude } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { addWorktree, createRepo } from '../helpers/git-repo.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir } from '../helpers/temp.js';

/**
 * `~/.claude/projects` trees written by real Claude Code runs (offline, against the fake Messages
 * API): each run records its working directory in its transcript, under the folder Claude Code
 * names after it. doctor reads those trees.
 */
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

interface Finding {
  id: string;
  severity: string;
  message: string;
  evidence: Record<string, unknown>;
  fix: string | null;
}

async function doctor(cwd: string, home: string, args: string[] = []) {
  const result = await runMemdir(['doctor', '--json', ...args], { cwd, env: { ...cleanEnv(home), PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(':') } });
  expect(result.stderr).toBe('');
  return { code: result.code, findings: (JSON.parse(result.stdout) as { findings: Finding[] }).findings };
}

async function claude(cwd: string, home: string, release: (typeof claudeReleases)[number]) {
  const before = server.requests.length;
  const run = await runClaude({ cwd, home, baseUrl: server.url, prompt: 'What do you remember?', release });
  expect(run.code, run.stderr).toBe(0);
  return server.requests.slice(before);
}

/** The sessions a folder's transcripts are named after. */
function sessions(folder: string): string[] {
  return fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => f.slice(0, -'.jsonl'.length));
}

function memory(name: string, session: string): string {
  return `---\nname: ${name}\ndescription: ${name}, written in a session of this project\ntype: project\noriginSessionId: ${session}\n---\n\n${name}.\n`;
}

describe.each(claudeReleases)('doctor on trees Claude Code %s wrote', (release) => {
  test('two projects whose paths sanitize alike share one folder: a collision, memories by the project that wrote them', async () => {
    const home = tempDir();
    const x = tempDir();
    const dotted = await createRepo(path.join(x, 'my.app'));
    const dashed = await createRepo(path.join(x, 'my-app'));
    const folder = path.join(home, '.claude', 'projects', sanitizeProjectPath(dashed));
    await claude(dotted, home, release);
    const [dotSession] = sessions(folder);
    await claude(dashed, home, release);
    const [dashSession] = sessions(folder).filter((s) => s !== dotSession);
    expect([dotSession, dashSession].every(Boolean)).toBe(true);
    fs.mkdirSync(path.join(folder, 'memory'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'memory', 'project_dotted.md'), memory('Dotted', dotSession!));
    fs.writeFileSync(path.join(folder, 'memory', 'project_dashed.md'), memory('Dashed', dashSession!));
    fs.writeFileSync(path.join(folder, 'memory', 'MEMORY.md'), '- [Dotted](project_dotted.md) — dotted\n- [Dashed](project_dashed.md) — dashed\n');

    const { code, findings } = await doctor(dotted, home);
    expect(code).toBe(1);
    expect(findings.filter((f) => f.severity !== 'info')).toEqual([
      {
        id: 'collision',
        severity: 'error',
        message: `${folder} is shared by 2 different projects: each loads the other's memories`,
        evidence: {
          folder,
          projects: [
            { root: dashed, cwds: [dashed], sessions: 1, memories: ['project_dashed.md'] },
            { root: dotted, cwds: [dotted], sessions: 1, memories: ['project_dotted.md'] },
          ],
          memoriesOfNoKnownSession: [],
        },
        fix: `give each project its own autoMemoryDirectory in its .claude/settings.local.json (${dashed}, ${dotted}), then move each project's memories there`,
      },
    ]);
  });

  test('a renamed project: the old folder is an orphan that points at the new path; after the fix, the next session loads the memory', async () => {
    const home = tempDir();
    const root = tempDir();
    // Underscore, dot, space and CJK in the path: Claude Code's folder name keeps none of them.
    const old = await createRepo(path.join(root, '旧 目录', 'my_proj.v1'));
    const saved = await runMemdir(['save', '--type', 'project', '--name', 'Release train', '--description', 'Releases ship every second Tuesday', '--body', 'Ship on Tuesdays.'], {
      cwd: old,
      env: cleanEnv(home),
    });
    expect(saved.code, saved.stderr).toBe(0);
    await claude(old, home, release);
    fs.mkdirSync(path.join(root, 'new'));
    fs.renameSync(old, path.join(root, 'new', 'my_proj.v1'));
    const now = fs.realpathSync(path.join(root, 'new', 'my_proj.v1'));
    // A session of the same project in a subdirectory: its transcript has its own folder, its memory is the project's. No finding.
    fs.mkdirSync(path.join(now, 'src'));
    await claude(path.join(now, 'src'), home, release);

    const oldFolder = path.join(home, '.claude', 'projects', sanitizeProjectPath(old));
    const dir = path.join(home, '.claude', 'projects', sanitizeProjectPath(now), 'memory');
    const { code, findings } = await doctor(now, home, ['--search-root', path.join(root, 'new')]);
    expect(code).toBe(0);
    // The latest release records each session's recent commits: the history matches before the name does.
    const matchedBy = release === 'latest' ? `commit ${(await simpleGit(now).revparse(['--short=7', 'HEAD'])).trim()}` : 'name';
    expect(findings.filter((f) => f.severity !== 'info')).toEqual([
      {
        id: 'orphan',
        severity: 'warning',
        message: `${oldFolder}: its project ${old} no longer exists; it now looks to be ${now} (1 memory left behind)`,
        evidence: { folder: oldFolder, cwds: [old], memories: ['project_release_train.md'], nowAt: now, matchedBy },
        fix: `memdir doctor --move-orphan ${oldFolder}`,
      },
    ]);

    // The fix doctor names; then the next real session loads the memory from its new place.
    const moved = await runMemdir(['doctor', '--move-orphan', oldFolder], { cwd: now, env: cleanEnv(home) });
    expect(moved.code, moved.stdout + moved.stderr).toBe(0);
    const loaded = loadedMemory(await claude(now, home, release));
    expect(loaded?.dir).toBe(dir);
    expect(loaded?.text).toContain('[Release train](project_release_train.md)');
    const after = await doctor(now, home);
    expect([after.code, after.findings.filter((f) => f.severity !== 'info')]).toEqual([0, []]);
  });

  test('after --fix of a split store, the next session loads the merged index; --undo puts both back', async () => {
    const home = tempDir();
    const project = await createRepo(path.join(tempDir(), 'split_store.app'));
    const saved = await runMemdir(['save', '--type', 'project', '--name', 'Canonical', '--description', 'Saved where Claude Code looks', '--body', 'Here.'], { cwd: project, env: cleanEnv(home) });
    expect(saved.code, saved.stderr).toBe(0);
    // An earlier session in a subdirectory kept its memory under the subdirectory's folder.
    fs.mkdirSync(path.join(project, 'pkg'));
    await claude(path.join(project, 'pkg'), home, release);
    const split = path.join(home, '.claude', 'projects', sanitizeProjectPath(path.join(project, 'pkg')), 'memory');
    fs.mkdirSync(split, { recursive: true });
    fs.writeFileSync(path.join(split, 'project_stranded.md'), memory('Stranded', sessions(path.dirname(split))[0]!));
    fs.writeFileSync(path.join(split, 'MEMORY.md'), '- [Stranded](project_stranded.md) — kept where no session looks\n');
    const dir = path.join(home, '.claude', 'projects', sanitizeProjectPath(project), 'memory');
    const indexBefore = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');

    const before = await doctor(project, home);
    expect(before.findings.filter((f) => f.severity !== 'info').map((f) => [f.id, f.evidence.reason, f.fix])).toEqual([
      ['split-store', 'subdirectory', 'memdir doctor --fix (merges it; memdir doctor --undo reverses)'],
    ]);
    const fixed = await doctor(project, home, ['--fix']);
    expect([fixed.code, fixed.findings.filter((f) => f.severity !== 'info')]).toEqual([0, []]);
    const loaded = loadedMemory(await claude(project, home, release));
    expect(loaded?.dir).toBe(dir);
    expect(loaded?.text).toContain('[Canonical](project_canonical.md)');
    expect(loaded?.text).toContain('- [Stranded](project_stranded.md) — kept where no session looks');

    const undone = await runMemdir(['doctor', '--undo'], { cwd: project, env: cleanEnv(home) });
    expect(undone.code, undone.stderr).toBe(0);
    expect([fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8'), fs.existsSync(path.join(dir, 'project_stranded.md')), fs.readdirSync(split).sort()]).toEqual([
      indexBefore,
      false,
      ['.memdir', 'MEMORY.md', 'project_stranded.md'],
    ]);
  });

  test('settings: what doctor says Claude Code does with a committed and with a relative autoMemoryDirectory is what it does', async () => {
    const home = tempDir();
    const committedDir = path.join(tempDir(), 'team-memory');
    const committed = await createRepo(path.join(tempDir(), 'committed'));
    fs.mkdirSync(path.join(committed, '.claude'));
    fs.writeFileSync(path.join(committed, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: committedDir }));
    fs.mkdirSync(committedDir);
    fs.writeFileSync(path.join(committedDir, 'MEMORY.md'), '- [Committed](project_committed.md) — from the committed setting\n');
    const one = await doctor(committed, home);
    const finding = one.findings.find((f) => f.id === 'committed-setting');
    expect(finding?.evidence.claudeCodeUses).toBe(committedDir);
    expect(loadedMemory(await claude(committed, home, release))?.dir).toBe(committedDir);

    const relative = await createRepo(path.join(tempDir(), 'relative'));
    fs.mkdirSync(path.join(relative, '.claude'));
    fs.writeFileSync(path.join(relative, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryDirectory: 'notes/memory' }));
    const saved = await runMemdir(
      [
        'save',
        '--dir',
        path.join(home, '.claude', 'projects', sanitizeProjectPath(relative), 'memory'),
        '--type',
        'project',
        '--name',
        'Default',
        '--description',
        'In the default folder',
        '--body',
        'Here.',
      ],
      { cwd: relative, env: cleanEnv(home) },
    );
    expect(saved.code, saved.stderr).toBe(0);
    const two = await doctor(relative, home);
    const dir = two.findings.find((f) => f.id === 'memory-directory')?.evidence.dir;
    expect(two.findings.filter((f) => f.severity !== 'info').map((f) => f.id)).toEqual(['relative-setting']);
    expect(loadedMemory(await claude(relative, home, release))?.dir).toBe(dir);
  });

  test('a deleted worktree whose sessions kept their own memory: an orphan of the main checkout; --move-orphan, and the next session loads it', async () => {
    const home = tempDir();
    const root = tempDir();
    const repo = await createRepo(path.join(root, 'app'));
    const worktree = await addWorktree(repo, path.join(root, 'app-login'), 'login-form');
    await claude(worktree, home, release);
    const wtFolder = path.join(home, '.claude', 'projects', sanitizeProjectPath(worktree));
    fs.mkdirSync(path.join(wtFolder, 'memory'));
    fs.writeFileSync(path.join(wtFolder, 'memory', 'project_login.md'), memory('Login form', sessions(wtFolder)[0]!));
    fs.writeFileSync(path.join(wtFolder, 'memory', 'MEMORY.md'), '- [Login form](project_login.md) — what the worktree learned\n');
    fs.rmSync(worktree, { recursive: true, force: true });

    const { findings } = await doctor(repo, home);
    expect(findings.filter((f) => f.severity !== 'info').map((f) => [f.id, f.evidence.nowAt, f.evidence.matchedBy, f.fix])).toEqual([
      ['orphan', repo, 'worktree', `memdir doctor --move-orphan ${wtFolder}`],
    ]);
    const moved = await runMemdir(['doctor', '--move-orphan', wtFolder], { cwd: repo, env: cleanEnv(home) });
    expect(moved.code, moved.stderr).toBe(0);
    const loaded = loadedMemory(await claude(repo, home, release));
    expect(loaded?.dir).toBe(path.join(home, '.claude', 'projects', sanitizeProjectPath(repo), 'memory'));
    expect(loaded?.text).toContain('- [Login form](project_login.md) — what the worktree learned');
  });
});

/** Each key of `ours` is in `real` with a value of the same JSON type (objects compared key by key). */
function shapeGaps(ours: Record<string, unknown>, real: Record<string, unknown>, at = ''): string[] {
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
  return Object.entries(ours).flatMap(([key, value]) => {
    if (!(key in real)) return [`${at}${key}: not sent by Claude Code`];
    if (kind(value) !== kind(real[key])) return [`${at}${key}: ${kind(value)}, Claude Code sends ${kind(real[key])}`];
    return kind(value) === 'object' ? shapeGaps(value as Record<string, unknown>, real[key] as Record<string, unknown>, `${at}${key}.`) : [];
  });
}

describe.each(claudeReleases)('doctor runs the hooks as Claude Code %s does', (release) => {
  test("the stdin doctor gives each hook has the shape this release sends; memdir's hooks installed, every one runs", async () => {
    const home = tempDir();
    const repo = await createRepo(path.join(tempDir(), 'hooked_app'));
    const env = { ...cleanEnv(home), PATH: `${memdirOnPath()}:${path.dirname(process.execPath)}:/usr/bin:/bin` };
    const dir = (await runMemdir(['where'], { cwd: repo, env })).stdout.trim();
    const saved = await runMemdir(['save', '--type', 'project', '--name', 'Deploy day', '--description', 'Deploys go out on Tuesdays', '--body', 'Tuesdays.'], { cwd: repo, env });
    expect(saved.code, saved.stderr).toBe(0);
    // What Claude Code sends each event, recorded by a hook of its own; the scripted model writes a topic file, so PreToolUse fires.
    const records = tempDir();
    const recorder = path.join(records, 'record.cjs');
    fs.writeFileSync(recorder, "const fs = require('node:fs'); fs.writeFileSync(require('node:path').join(__dirname, process.argv[2] + '.json'), fs.readFileSync(0));\n");
    const events = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd'] as const;
    const hooks = Object.fromEntries(events.map((event) => [event, [{ ...(event === 'PreToolUse' ? { matcher: 'Write' } : {}), hooks: [{ type: 'command', command: `node ${recorder} ${event}` }] }]]));
    fs.mkdirSync(path.join(repo, '.claude'));
    fs.writeFileSync(path.join(repo, '.claude', 'settings.local.json'), JSON.stringify({ hooks }));
    server.setDefault((request) => {
      const offersWrite = (request.body?.tools ?? []).some((t: { name?: string }) => t.name === 'Write');
      const done = JSON.stringify(request.body?.messages ?? []).includes('tool_result');
      if (!offersWrite || done) return { text: 'Done.' };
      return {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_doctor_1',
            name: 'Write',
            input: { file_path: path.join(dir, 'project_probe.md'), content: '---\nname: Probe\ndescription: A probe\ntype: project\n---\n\nProbe.\n' },
          },
        ],
        stopReason: 'tool_use',
      };
    });
    const run = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'Note that deploys go out on Tuesdays.', release, args: ['--permission-mode', 'acceptEdits'] });
    expect(run.code, run.stderr).toBe(0);
    for (const event of events) {
      const real = JSON.parse(fs.readFileSync(path.join(records, `${event}.json`), 'utf8')) as Record<string, unknown>;
      expect(shapeGaps(eventInput(event, repo, String(real.transcript_path), 'session', dir), real), event).toEqual([]);
    }

    // memdir's hooks in place of the recorder: doctor runs each, and the memory stays as it was.
    fs.rmSync(path.join(repo, '.claude', 'settings.local.json'));
    const installed = await runMemdir(['hooks', 'install', '--command', 'memdir'], { cwd: repo, env });
    expect(installed.code, installed.stderr).toBe(0);
    const before = snapshotTree(home);
    const result = await runMemdir(['doctor', '--json'], { cwd: repo, env });
    expect(snapshotTree(home)).toEqual(before);
    const ran = (JSON.parse(result.stdout) as { findings: Finding[] }).findings.filter((f) => f.id.startsWith('hook'));
    // Stop runs two of memdir's hooks: extract and the session notes.
    const installedEvents = events.flatMap((event) => (event === 'Stop' ? [event, event] : [event]));
    expect(ran.map((f) => [f.message.split(':')[0], f.evidence.ran])).toEqual([['git pre-commit (git)', 'ok'], ...installedEvents.map((event) => [`Claude Code ${event} (local)`, 'ok'])]);
  });
});
