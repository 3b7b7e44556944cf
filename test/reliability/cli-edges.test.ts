import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { bloatedIndex } from '../helpers/bloated.js';
import { cleanEnv, memdirBin, repoRoot, runMemdir, type CliResult } from '../helpers/run-cli.js';
import { runMemdirInDeletedDir, runMemdirReaderGone, runMemdirSlowInput, runMemdirStdinOpen } from '../helpers/run-hostile.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

function workspace() {
  const root = tempDir();
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  fs.mkdirSync(home);
  fs.mkdirSync(project);
  const dir = path.join(root, 'memory');
  return { root, home, project, dir, env: cleanEnv(home) };
}

/** The directory Claude Code (and memdir) use by default for `project`. */
const defaultMemoryDir = (home: string, project: string) => path.join(home, '.claude/projects', project.replace(/[^a-zA-Z0-9]/g, '-'), 'memory');

const lines = (text: string) => text.split('\n').filter(Boolean);
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** One line on stderr, no stack trace, no raw control characters. */
function expectOneLine(r: CliResult): void {
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toMatch(CONTROL);
}

const freeze = {
  'project_freeze.md': '---\nname: Merge freeze\ndescription: No merges to main during the release freeze\ntype: project\n---\n\nNo merges to main until the release is cut.\n',
  'MEMORY.md': '- [Merge freeze](project_freeze.md) — No merges to main during the release freeze\n',
};
const prompt = (cwd?: string) => JSON.stringify({ session_id: 's1', hook_event_name: 'UserPromptSubmit', prompt: 'can we merge the release branch to main now', ...(cwd ? { cwd } : {}) });

describe('item 4: a name or description with a line break or control character', () => {
  const save = (dir: string, name: string, description: string) => ['save', '--dir', dir, '--type', 'project', `--name=${name}`, `--description=${description}`, '--body', 'b'];

  test.each([
    ['a newline in --name', 'line1\nline2', 'one line'],
    ['a carriage return in --name', 'line1\rline2', 'one line'],
    ['an escape sequence in --name', 'red \u001b[31m alert', 'one line'],
    ['a newline in --description', 'Title', 'd1\nd2'],
    ['a tab in --description', 'Title', 'd1\td2'],
    ['a line separator in --description', 'Title', 'd1\u2028d2'],
  ])('%s is refused: exit 2, one line, nothing written', async (_, name, description) => {
    const { project, dir, env } = workspace();
    writeTree(dir, freeze);
    const before = snapshotTree(dir);
    const r = await runMemdir(save(dir, name, description), { cwd: project, env });
    expect(r.code).toBe(2);
    expectOneLine(r);
    expect(r.stderr).toMatch(/--(name|description) must be one line/);
    expect(snapshotTree(dir)).toEqual(before);
    // Saving again changes nothing either; there is never a broken pointer to forget.
    expect((await runMemdir(save(dir, name, description), { cwd: project, env })).code).toBe(2);
    expect(snapshotTree(dir)).toEqual(before);
  });
});

describe('item 6: a deleted working directory', () => {
  test('recall --hook answers for the cwd it is given; without one it is exit 0 and one line', async () => {
    const { root, home, project, env } = workspace();
    writeTree(defaultMemoryDir(home, project), freeze);
    const answered = await runMemdirInDeletedDir(['recall', '--hook'], { dir: path.join(root, 'gone1'), env, input: prompt(project) });
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout).hookSpecificOutput.additionalContext).toContain('No merges to main');

    const skipped = await runMemdirInDeletedDir(['recall', '--hook'], { dir: path.join(root, 'gone2'), env, input: prompt() });
    expect(skipped).toMatchObject({ code: 0, stdout: '' });
    expectOneLine(skipped);
    expect(skipped.stderr).toMatch(/working directory/);
  });

  test('context --hook without a cwd in its input: exit 0, one line', async () => {
    const { root, env } = workspace();
    const r = await runMemdirInDeletedDir(['context', '--hook'], { dir: path.join(root, 'gone'), env, input: '{"hook_event_name":"SessionStart"}' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expectOneLine(r);
  });

  test('lint and where work with an absolute --dir; what needs the cwd is one line, exit 2', async () => {
    const { root, dir, env } = workspace();
    writeTree(dir, freeze);

    const lint = await runMemdirInDeletedDir(['lint', '--dir', dir], { dir: path.join(root, 'a'), env });
    expect(lint.code).toBe(0);
    expect(lint.stderr).not.toMatch(/uv_cwd|\n\s+at /);
    const where = await runMemdirInDeletedDir(['where', '--dir', dir], { dir: path.join(root, 'b'), env });
    expect(where).toMatchObject({ code: 0, stdout: `${dir}\n` });

    for (const [args, gone] of [
      [['where'], 'c'],
      [['lint', '--dir', 'memory'], 'd'],
    ] as const) {
      const r = await runMemdirInDeletedDir([...args], { dir: path.join(root, gone), env });
      expect(r.code).toBe(2);
      expectOneLine(r);
      expect(r.stderr).toMatch(/working directory .*no longer exists/);
    }
  });
});

describe('item 7: a reader that stops reading (memdir … | head)', () => {
  test('lint with a long report: exit 0, nothing on stderr', async () => {
    const { project, dir, env } = workspace();
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`project_n${i}.md`] = `no frontmatter ${i}\n`;
    writeTree(dir, files);
    const r = await runMemdirReaderGone(['lint', '--dir', dir], { cwd: project, env });
    expect(r).toMatchObject({ code: 0, stderr: '' });
  });

  test('refactor: the change is committed, then the report ends quietly', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, { 'MEMORY.md': bloatedIndex(8, 30) });
    const r = await runMemdirReaderGone(['refactor', '--dir', dir, '--engine', 'local'], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).not.toBe(bloatedIndex(8, 30));
    expect(fs.readdirSync(path.join(dir, '.memdir'))).not.toContain('journal.json');
  });

  test('--help', async () => {
    const { project, env } = workspace();
    expect(await runMemdirReaderGone(['save', '--help'], { cwd: project, env })).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('item 9: hook input on a stdin that stays open', () => {
  test.each(['recall', 'context'])('%s --hook answers as soon as the JSON is complete', async (command) => {
    const { home, project, env } = workspace();
    writeTree(defaultMemoryDir(home, project), freeze);
    const r = await runMemdirStdinOpen([command, '--hook'], { cwd: project, env, input: `${prompt(project)}\n` });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('No merges to main');
  });

  test('whatever follows the first JSON document is ignored', async () => {
    const { home, project, env } = workspace();
    writeTree(defaultMemoryDir(home, project), freeze);
    const r = await runMemdirStdinOpen(['recall', '--hook'], { cwd: project, env, input: `${prompt(project)}{"next":` });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No merges to main');
  });

  test.each([
    ['an incomplete document', '{"prompt": "merge the release branch", "cwd": '],
    ['garbage bytes with control characters', Buffer.from([0x1b, 0x5b, 0x33, 0x31, 0x6d, 0xff, 0xfe, 0x07, 0x0a, 0x00, 0x41])],
    ['a JSON array', '[1, 2, 3]'],
    ['invalid UTF-8 inside the JSON', Buffer.concat([Buffer.from('{"prompt": "caf'), Buffer.from([0xe9]), Buffer.from(' now"}')])],
  ])('%s: exit 0, one line on stderr, nothing on stdout', async (_, input) => {
    const { project, env } = workspace();
    for (const command of ['recall', 'context']) {
      const r = await runMemdirStdinOpen([command, '--hook'], { cwd: project, env, input });
      expect(r).toMatchObject({ code: 0, stdout: '' });
      expectOneLine(r);
      expect(r.stderr).toMatch(new RegExp(`^memdir ${command} hook skipped: `));
    }
  });

  test('a lone surrogate in the prompt does not break the hook', async () => {
    const { home, project, env } = workspace();
    writeTree(defaultMemoryDir(home, project), freeze);
    const input = `{"prompt": "can we merge the release \\ud800 branch to main", "cwd": ${JSON.stringify(project)}}`;
    const r = await runMemdirStdinOpen(['recall', '--hook'], { cwd: project, env, input });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('No merges to main');
  });

  test('input larger than the cap: exit 0, one line', async () => {
    const { project, env } = workspace();
    const r = await runMemdirStdinOpen(['recall', '--hook'], { cwd: project, env, input: `{"prompt": "${'a'.repeat(9 * 1024 * 1024)}` });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expectOneLine(r);
    expect(r.stderr).toMatch(/larger than/);
  });
});

// Claude Code ends its hooks' stdin after the JSON and sets CLAUDE_PROJECT_DIR for every hook; a
// pipe is read without a stream, and must behave as the stream does.
describe('hook input as Claude Code gives it (CLAUDE_PROJECT_DIR set)', () => {
  const asClaudeCode = (env: NodeJS.ProcessEnv, project: string) => ({ ...env, CLAUDE_PROJECT_DIR: project });

  test('the JSON then stdin left open: answered as soon as the JSON is complete', async () => {
    const { home, project, env } = workspace();
    writeTree(defaultMemoryDir(home, project), freeze);
    const r = await runMemdirStdinOpen(['recall', '--hook'], { cwd: project, env: asClaudeCode(env, project), input: `${prompt(project)}\n` });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('No merges to main');
  });

  test('the JSON in two parts 300 ms apart: both read', async () => {
    const { home, project, env } = workspace();
    writeTree(defaultMemoryDir(home, project), freeze);
    const r = await runMemdirSlowInput(['recall', '--hook'], { cwd: project, env: asClaudeCode(env, project), input: prompt(project), gapMs: 300 });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('No merges to main');
  });

  test('a non-blocking stdin with nothing in it yet: the read gives way to the stream, which gets the JSON', async () => {
    const { home, project, env } = workspace();
    writeTree(defaultMemoryDir(home, project), freeze);
    const fifo = path.join(project, 'stdin.fifo');
    execFileSync('mkfifo', [fifo]);
    // A writer is connected before the child starts, so its first read finds no data (EAGAIN), not the end.
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const writer = fs.openSync(fifo, fs.constants.O_WRONLY);
    const child = spawn(process.execPath, [memdirBin, 'recall', '--hook'], { cwd: project, env: asClaudeCode(env, project), stdio: [reader, 'pipe', 'pipe'] });
    fs.closeSync(reader);
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.writeSync(writer, prompt(project));
    fs.closeSync(writer);
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout).hookSpecificOutput.additionalContext).toContain('No merges to main');
  });

  test('an incomplete document then end of input: exit 0, one line', async () => {
    const { project, env } = workspace();
    const r = await runMemdir(['recall', '--hook'], { cwd: project, env: asClaudeCode(env, project), input: '{"prompt": "merge the release branch", "cwd": ' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expectOneLine(r);
    expect(r.stderr).toMatch(/^memdir recall hook skipped: /);
  });
});

describe('item 12: exit codes and argument parsing', () => {
  const save = (dir: string) => ['save', '--dir', dir, '--type', 'project', '--body', 'b'];

  test('a value that starts with "-" is an error that says how to pass it, never help or the version', async () => {
    const { project, dir, env } = workspace();
    for (const args of [
      ['--name', '-dashname', '--description', 'd'],
      ['--name', '--version', '--description', 'd'],
      ['--name', 'n', '--description', '-q'],
    ]) {
      const r = await runMemdir([...save(dir), ...args], { cwd: project, env });
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expectOneLine(r);
      expect(r.stderr).toMatch(/--(name|description)=-/);
      expect(fs.existsSync(dir)).toBe(false);
    }
    const r = await runMemdir([...save(dir), '--name=-dashname', '--description=-q'], { cwd: project, env });
    expect(r).toMatchObject({ code: 0, stdout: 'saved project_dashname.md\n' });
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe('- [-dashname](project_dashname.md) — -q\n');
  });

  test('an option that takes one value, given twice, is one line (not an internal error)', async () => {
    const { project, dir, env } = workspace();
    const r = await runMemdir([...save(dir), '--name', 'a', '--name', 'b', '--description', 'd'], { cwd: project, env });
    expect(r.code).toBe(2);
    expectOneLine(r);
    expect(r.stderr).toMatch(/--name is given more than once/);
    expect(fs.existsSync(dir)).toBe(false);
  });

  test('dates and numbers are validated strictly', async () => {
    const { project, dir, env } = workspace();
    writeTree(dir, freeze);
    for (const args of [
      ['refactor', '--dry-run', '--anchor-date', '2026-13-45'],
      ['refactor', '--dry-run', '--anchor-date', '2026-02-30'],
      ['refactor', '--dry-run', '--anchor-date', '2026-3-5'],
      ['recall', 'merge freeze', '--limit', 'abc'],
      ['recall', 'merge freeze', '--limit', '0'],
      ['recall', 'merge freeze', '--limit', '2.5'],
      ['recall', 'merge freeze', '--limit', '-3'],
      ['lint', '--max-warnings', 'many'],
    ]) {
      const r = await runMemdir([...args, '--dir', dir], { cwd: project, env });
      expect(r.code, args.join(' ')).toBe(2);
      expectOneLine(r);
    }
    expect((await runMemdir(['refactor', '--dry-run', '--anchor-date', '2024-02-29', '--dir', dir], { cwd: project, env })).code).toBe(0);
    expect((await runMemdir(['recall', 'merge freeze', '--limit', '3', '--dir', dir], { cwd: project, env })).code).toBe(0);
  });

  test('forget refuses a path outside the directory with exit 1', async () => {
    const { root, project, dir, env } = workspace();
    writeTree(dir, freeze);
    fs.writeFileSync(path.join(root, 'outside.md'), 'precious\n');
    for (const target of ['../outside.md', path.join(root, 'outside.md')]) {
      const r = await runMemdir(['forget', '--dir', dir, target], { cwd: project, env });
      expect(r.code).toBe(1);
      expectOneLine(r);
    }
    expect(fs.readFileSync(path.join(root, 'outside.md'), 'utf8')).toBe('precious\n');
  });

  test('yargs errors are one line', async () => {
    const { project, env } = workspace();
    const r = await runMemdir(['lint', '--format', 'xml'], { cwd: project, env });
    expect(r.code).toBe(2);
    expectOneLine(r);
    expect(r.stderr).toContain('xml');
  });

  test('an index that escapes the directory is named plainly, not as "cannot write (InputError: …)"', async () => {
    const { root, project, dir, env } = workspace();
    fs.writeFileSync(path.join(root, 'elsewhere.md'), '- [Keep](keep.md)\n');
    fs.mkdirSync(dir);
    fs.symlinkSync(path.join(root, 'elsewhere.md'), path.join(dir, 'MEMORY.md'));
    const r = await runMemdir([...save(dir), '--name', 'n', '--description', 'd'], { cwd: project, env });
    expect(r.code).toBe(2);
    expectOneLine(r);
    expect(r.stderr).not.toMatch(/InputError|cannot write/);
    expect(r.stderr).toMatch(/MEMORY\.md: resolves outside the memory directory/);
  });

  test('under --json every failure is a JSON error document on stdout', async () => {
    const { root, project, dir, env } = workspace();
    writeTree(dir, { ...freeze, 'memdir.config.json': '{"rules": {"no-such-rule": "off"}}' });
    const clean = path.join(root, 'clean');
    writeTree(clean, freeze);
    const cases: Array<[string[], number]> = [
      [['lint', '--dir', dir, '--json'], 2],
      // Every command rejects the configuration, not only lint.
      [['forget', '--dir', dir, '--json', 'nothing-like-it'], 2],
      [['save', '--dir', clean, '--json', '--type', 'bogus', '--name', 'n', '--description', 'd', '--body', 'b'], 2],
      [['forget', '--dir', clean, '--json', 'nothing-like-it'], 1],
      [['where', '--json', '--bogus'], 2],
      [['recall', '--json', '--limit', 'abc', 'x'], 2],
    ];
    for (const [args, exitCode] of cases) {
      const r = await runMemdir(args, { cwd: project, env });
      expect(r.code, args.join(' ')).toBe(exitCode);
      const doc = JSON.parse(r.stdout);
      expect(doc).toMatchObject({ error: { message: expect.any(String), exitCode } });
      expect(r.stderr).toContain(doc.error.message);
    }
  });

  test.each([undefined, '40'])('--help wraps at word boundaries (COLUMNS=%s, stdout not a TTY)', async (columns) => {
    const { project, home } = workspace();
    const env = cleanEnv(home, columns ? { COLUMNS: columns } : {});
    for (const command of ['save', 'lint', 'refactor', 'recall']) {
      const r = await runMemdir([command, '--help'], { cwd: project, env });
      expect(r.code).toBe(0);
      // Every word printed is a whole word of the command's own text or of yargs' labels: no "ato"/"mic".
      // Only a token wider than its column (".claude/settings.json" in 16 columns) may be split.
      const source = [`src/cmd/table/${command}.ts`, 'src/shell/command-table.ts', 'src/llm/model.ts'].map((f) => fs.readFileSync(path.join(repoRoot, f), 'utf8'));
      const known = `${source.join(' ')} memdir Options Examples Global Positionals Show help version number required boolean default choices array`;
      const words = new Set(known.split(/[^A-Za-z]+/));
      const tooWide = columns ? known.split(/\s+/).filter((token) => token.length > 16) : [];
      const fragments = r.stdout.split(/[^A-Za-z]+/).filter((w) => w.length > 1 && !words.has(w) && !tooWide.some((token) => token.includes(w)));
      expect(fragments).toEqual([]);
      if (columns) for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(Number(columns));
    }
  });
});
