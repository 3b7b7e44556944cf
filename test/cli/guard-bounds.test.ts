import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runRecorded } from '../helpers/load-recorder.js';
import { cleanEnv, memdirBin, repoRoot, runMemdir, type CliResult } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The guard hook as installed (no --dir: the memory directory found from the session's folder) on
 * the built binary. A write outside every folder the memory directory can be in is let through by
 * the fast path's own bundle; every way of reaching the memory directory by another path (a
 * relative path, `..`, a symlink, another case, team/, a directory set by a setting or the
 * environment) must still reach the judge and be refused.
 */
const FIXTURE = path.join(repoRoot, 'test/fixtures/guard/block-inline-content');
/** 30 inline lines for MEMORY.md: refused wherever the index really is. */
const INLINE = (JSON.parse(fs.readFileSync(path.join(FIXTURE, 'input.json'), 'utf8')) as { tool_input: { content: string } }).tool_input.content;
const HOOK_BUNDLE = 'dist/guard-hook.cjs';

interface Session {
  root: string;
  home: string;
  project: string;
  memory: string;
  env: NodeJS.ProcessEnv;
}

/** A home, a git project in it and its memory directory at the default location, with the fixture's memories. */
async function session(extraEnv: NodeJS.ProcessEnv = {}): Promise<Session> {
  const root = tempDir('memdir-guard-bounds-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  fs.writeFileSync(path.join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.mkdirSync(home);
  const env = cleanEnv(home, extraEnv);
  const where = await runMemdir(['where'], { cwd: project, env });
  expect(where.code, where.stderr).toBe(0);
  const memory = where.stdout.trim();
  fs.mkdirSync(path.dirname(memory), { recursive: true });
  fs.cpSync(path.join(FIXTURE, 'memory'), memory, { recursive: true });
  return { root, home, project, memory, env };
}

const writeInput = (s: Session, file_path: string, content = INLINE, cwd = s.project) =>
  JSON.stringify({ session_id: 'bounds', hook_event_name: 'PreToolUse', cwd, tool_name: 'Write', tool_input: { file_path, content } });

async function hook(s: Session, input: string, env = s.env) {
  const run = await runRecorded(s.root, [memdirBin, 'guard', '--hook'], { env, input, cwd: s.project });
  return { ...run, judged: run.modules.some((m) => m.endsWith(HOOK_BUNDLE)) };
}

const decision = (run: CliResult) => (run.stdout === '' ? 'allow' : (JSON.parse(run.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision);

describe('a write that reaches the memory directory by another path is judged and refused', () => {
  test.each<[string, (s: Session) => string | { file: string; cwd: string }]>([
    ['its own path', (s) => path.join(s.memory, 'MEMORY.md')],
    ['a path relative to the session folder', (s) => path.relative(s.project, path.join(s.memory, 'MEMORY.md'))],
    [
      'a relative path from a folder of the project',
      (s) => {
        const cwd = path.join(s.project, 'src');
        fs.mkdirSync(cwd);
        return { file: path.relative(cwd, path.join(s.memory, 'MEMORY.md')), cwd };
      },
    ],
    ['a path with .. segments', (s) => `${s.project}/src/../../home/${path.relative(s.home, path.join(s.memory, 'MEMORY.md'))}`],
    [
      'a symlinked folder in the project',
      (s) => {
        fs.symlinkSync(s.memory, path.join(s.project, 'notes'));
        return path.join(s.project, 'notes', 'MEMORY.md');
      },
    ],
    [
      'a symlink that is not named like Markdown',
      (s) => {
        fs.symlinkSync(path.join(s.memory, 'MEMORY.md'), path.join(s.project, 'index.txt'));
        return path.join(s.project, 'index.txt');
      },
    ],
    [
      'a link followed before the .. after it',
      (s) => {
        fs.mkdirSync(path.join(s.memory, 'archive'));
        fs.symlinkSync(path.join(s.memory, 'archive'), path.join(s.project, 'deep'));
        // Lexically <project>/MEMORY.md; the file system takes it to the memory directory's index.
        return `${s.project}/deep/../MEMORY.md`;
      },
    ],
  ])('%s', async (_, make) => {
    const s = await session();
    const target = make(s);
    const { file, cwd } = typeof target === 'string' ? { file: target, cwd: s.project } : target;
    const run = await hook(s, writeInput(s, file, INLINE, cwd));
    expect([run.code, run.stderr, decision(run)]).toEqual([0, '', 'deny']);
    expect(run.stdout).toContain('puts content into MEMORY.md');
  });

  test('a dangling symlink in the project that a write would create a memory through', async () => {
    const s = await session();
    fs.symlinkSync(path.join(s.memory, 'project_deploy.md'), path.join(s.project, 'deploy.md'));
    const run = await hook(s, writeInput(s, path.join(s.project, 'deploy.md'), '# Deploy\n\nDeploys go out on Tuesdays.\n'));
    expect([run.code, run.stderr, decision(run)]).toEqual([0, '', 'deny']);
    expect(run.stdout).toContain('project_deploy.md would have bad frontmatter');
  });

  test('the team folder', async () => {
    const s = await session();
    fs.mkdirSync(path.join(s.memory, 'team'));
    fs.copyFileSync(path.join(s.memory, 'MEMORY.md'), path.join(s.memory, 'team', 'MEMORY.md'));
    const run = await hook(s, writeInput(s, path.join(s.memory, 'team', 'MEMORY.md')));
    expect([run.code, run.stderr, decision(run)]).toEqual([0, '', 'deny']);
    expect(run.stdout).toContain('puts content into team/MEMORY.md');
  });

  test('the memory directory named in another case goes to the judge (a case-insensitive volume would take it there)', async () => {
    const s = await session();
    const upper = path.join(s.home, '.CLAUDE', path.relative(path.join(s.home, '.claude'), s.memory), 'MEMORY.md');
    const run = await hook(s, writeInput(s, upper));
    expect(run.judged).toBe(true);
    // This volume is case-sensitive: another folder, not the memory directory, and the write passes.
    expect([run.code, run.stdout, run.stderr]).toEqual([0, '', '']);
  });
});

describe('a memory directory set elsewhere is one of the bounds', () => {
  const elsewhere = (s: Session) => {
    const dir = path.join(s.root, 'elsewhere', 'memory');
    fs.cpSync(path.join(FIXTURE, 'memory'), dir, { recursive: true });
    return dir;
  };

  test.each<[string, (s: Session, dir: string) => NodeJS.ProcessEnv | undefined]>([
    [
      'autoMemoryDirectory in the user settings',
      (s, dir) => {
        fs.mkdirSync(path.join(s.home, '.claude'), { recursive: true });
        fs.writeFileSync(path.join(s.home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: dir }));
        return undefined;
      },
    ],
    [
      'autoMemoryDirectory with ~ in the local project settings',
      (s, dir) => {
        const inHome = path.join(s.home, 'mem');
        fs.renameSync(dir, inHome);
        fs.symlinkSync(inHome, dir);
        fs.mkdirSync(path.join(s.project, '.claude'));
        fs.writeFileSync(path.join(s.project, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryDirectory: '~/mem' }));
        return undefined;
      },
    ],
    ['CLAUDE_COWORK_MEMORY_PATH_OVERRIDE', (_s, dir) => ({ CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: dir })],
    [
      'CLAUDE_CONFIG_DIR',
      (s, dir) => {
        const config = path.join(s.root, 'config');
        const memory = path.join(config, 'projects', path.basename(path.dirname(s.memory)), 'memory');
        fs.mkdirSync(path.dirname(memory), { recursive: true });
        fs.renameSync(dir, memory);
        fs.symlinkSync(memory, dir);
        return { CLAUDE_CONFIG_DIR: config };
      },
    ],
  ])('%s', async (_, configure) => {
    const s = await session();
    const dir = elsewhere(s);
    const env = { ...s.env, ...configure(s, dir) };
    const run = await hook(s, writeInput(s, path.join(dir, 'MEMORY.md')), env);
    expect([run.code, run.stderr, decision(run)]).toEqual([0, '', 'deny']);
  });

  test('an untrusted project setting still bounds the fast path; the judge then ignores it', async () => {
    const s = await session();
    const dir = elsewhere(s);
    fs.mkdirSync(path.join(s.project, '.claude'));
    fs.writeFileSync(path.join(s.project, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: dir }));
    const run = await hook(s, writeInput(s, path.join(dir, 'MEMORY.md')));
    expect(run.judged).toBe(true);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, '', '']);
  });
});

describe('a write outside every bound passes on the fast path alone', () => {
  test.each<[string, (s: Session) => string]>([
    ['a source file', (s) => path.join(s.project, 'src', 'app.ts')],
    ['Markdown in the project', (s) => path.join(s.project, 'README.md')],
    ['Markdown in the home folder, beside the config home', (s) => path.join(s.home, '.claude-notes', 'todo.md')],
    ['a relative Markdown path', () => 'docs/guide.md'],
  ])('%s', async (_, make) => {
    const s = await session();
    const run = await hook(s, writeInput(s, make(s)));
    expect([run.code, run.stdout, run.stderr, run.judged]).toEqual([0, '', '', false]);
  });

  test('Markdown in another project’s memory directory goes to the judge, which lets it through', async () => {
    const s = await session();
    const other = path.join(path.dirname(path.dirname(s.memory)), '-tmp-other', 'memory', 'MEMORY.md');
    const run = await hook(s, writeInput(s, other));
    expect([run.code, run.stdout, run.stderr, run.judged]).toEqual([0, '', '', true]);
  });

  test('a settings file that is not JSON: a Markdown write goes to the hook, which says so; a source file passes', async () => {
    const s = await session();
    fs.mkdirSync(path.join(s.home, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(s.home, '.claude', 'settings.json'), '{ not json');
    const markdown = await hook(s, writeInput(s, path.join(s.project, 'README.md')));
    expect([markdown.code, markdown.stdout, markdown.judged]).toEqual([0, '', true]);
    expect(markdown.stderr).toMatch(/^memdir guard hook skipped: .*settings\.json[^\n]*\n$/);
    const source = await hook(s, writeInput(s, path.join(s.project, 'app.ts')));
    expect([source.code, source.stdout, source.stderr, source.judged]).toEqual([0, '', '', false]);
  });
});

describe('stdin: what the fast path read is handed over whole', () => {
  /** Run the hook with the input written in two parts, `gapMs` apart, over a socket (Node's child stdio, as Claude Code runs hooks). */
  function inTwoParts(s: Session, input: string, gapMs: number, end = true): Promise<CliResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [memdirBin, 'guard', '--hook'], { cwd: s.project, env: s.env });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.on('error', () => {});
      const half = Math.floor(input.length / 2);
      child.stdin.write(input.slice(0, half));
      setTimeout(() => (end ? child.stdin.end(input.slice(half)) : undefined), gapMs);
    });
  }

  test('an input that arrives in two parts is judged whole', async () => {
    const s = await session();
    const run = await inTwoParts(s, writeInput(s, path.join(s.memory, 'MEMORY.md')), 300);
    expect([run.code, run.stderr, decision(run)]).toEqual([0, '', 'deny']);
  });

  test('half an input and then silence: exit 0 with one line, within seconds', async () => {
    const s = await session();
    const started = Date.now();
    const run = await inTwoParts(s, writeInput(s, path.join(s.project, 'README.md')), 0, false);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect([run.code, run.stdout]).toEqual([0, '']);
    expect(run.stderr).toMatch(/^memdir guard hook skipped: [^\n]+\n$/);
  });

  test('under --pending-deprecation (where process.binding warns) the socket is read through the stream, without a warning', async () => {
    const s = await session();
    const env = { ...s.env, NODE_OPTIONS: '--pending-deprecation' };
    const outside = await hook(s, writeInput(s, path.join(s.project, 'README.md')), env);
    expect([outside.code, outside.stdout, outside.stderr]).toEqual([0, '', '']);
    const refused = await hook(s, writeInput(s, path.join(s.memory, 'MEMORY.md')), env);
    expect([refused.code, refused.stderr, decision(refused)]).toEqual([0, '', 'deny']);
  });

  test('an input in a regular file', async () => {
    const s = await session();
    const file = path.join(s.root, 'input.json');
    fs.writeFileSync(file, writeInput(s, path.join(s.memory, 'MEMORY.md')));
    const run = await new Promise<CliResult>((resolve, reject) => {
      const fd = fs.openSync(file, 'r');
      const child = spawn(process.execPath, [memdirBin, 'guard', '--hook'], { cwd: s.project, env: s.env, stdio: [fd, 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => {
        fs.closeSync(fd);
        resolve({ code: code ?? -1, stdout, stderr });
      });
    });
    expect([run.code, run.stderr, decision(run)]).toEqual([0, '', 'deny']);
  });
});
