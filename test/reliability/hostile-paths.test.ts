import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { inPool, leftovers, STACK_TRACE } from '../helpers/reliability.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

// Every command against every hostile way of naming or filling a memory directory. Each cell: at
// most one line on stderr (plus a resolution warning where one is due), no stack trace, the right
// exit code (hooks always 0), no byte from outside the directory printed, nothing outside it changed,
// and no temp file, lock or journal left inside it.

/** Content that lives outside the memory directory: none of it may ever be printed. */
const MARKERS = ['PASSWD-MARKER', 'root:x:0:0', 'OUTSIDE-SECRET-MARKER', 'SSH-KEY-MARKER', 'SSH-INDEX-MARKER'];

const COMMANDS = ['where', 'context', 'context --hook', 'lint', 'lint --fix', 'refactor', 'recall', 'recall --hook', 'save', 'forget'] as const;
type Command = (typeof COMMANDS)[number];

/** Refused, as bad input (2) or as a refusal (1); the table does not pin which. */
const REFUSED = [1, 2];
/** Any answer but a crash: the invariants of the cell still hold. */
const ANY = [0, 1, 2];

interface Workspace {
  root: string;
  home: string;
  project: string;
  memory: string;
  outside: string;
}

interface HostileCase {
  name: string;
  /** Turn the clean workspace hostile. */
  setup?: (ws: Workspace) => void;
  /** How the directory is named: --dir arguments (default: --dir with the memory folder) and/or environment. */
  dirArgs?: (ws: Workspace) => string[];
  env?: (ws: Workspace) => NodeJS.ProcessEnv;
  /** The directory memdir may touch (default: the memory folder); undefined when it must not resolve at all. */
  confined?: (ws: Workspace) => string | undefined;
  /** What `forget` is asked to remove (default: an ordinary memory). */
  forget?: (ws: Workspace) => string;
  exit: Partial<Record<Command, number | number[]>> & { default: number | number[] };
  /** Paths on this machine that must not appear (a refused directory created anyway); removed again if they do. */
  mustNotExist?: string[];
  /** A resolution warning is due on stderr besides the one-line answer. */
  warns?: boolean;
}

const memoryFile = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: reference\n---\n\n${body}\n`;

function workspace(): Workspace {
  const root = tempDir();
  const ws = { root, home: path.join(root, 'home'), project: path.join(root, 'project'), memory: path.join(root, 'project/memory'), outside: path.join(root, 'outside') };
  writeTree(ws.memory, {
    'MEMORY.md':
      '# Memory\n\n- [Deploy freeze](reference_freeze.md) — where the deploy freeze calendar is published\n' +
      '- [Grafana](reference_grafana.md) — where latency dashboards for the billing service live\n',
    'reference_freeze.md': memoryFile('Deploy freeze', 'where the deploy freeze calendar is published', 'The deploy freeze calendar is on the release wiki.'),
    'reference_grafana.md': memoryFile('Grafana', 'where latency dashboards for the billing service live', 'https://grafana.example.com/d/billing'),
  });
  writeTree(ws.outside, {
    passwd: 'root:x:0:0:root:/root:/bin/bash\nPASSWD-MARKER\n',
    'secret.md': memoryFile('Deploy freeze secret', 'the deploy freeze override password', 'OUTSIDE-SECRET-MARKER deploy freeze override'),
  });
  writeTree(ws.home, {
    '.ssh/id_ed25519': '-----BEGIN OPENSSH PRIVATE KEY-----\nSSH-KEY-MARKER\n',
    '.ssh/MEMORY.md': '- [Deploy key](id_ed25519) — SSH-INDEX-MARKER deploy freeze\n',
  });
  return ws;
}

const addPointer = (ws: Workspace, target: string) => fs.appendFileSync(path.join(ws.memory, 'MEMORY.md'), `- [Deploy freeze override](${target}) — the deploy freeze override\n`);

const invalidDir = (name: string, dir: string | ((ws: Workspace) => string), via: 'flag' | 'env', mustNotExist: string[] = []): HostileCase => {
  const named = (ws: Workspace) => (typeof dir === 'string' ? dir : dir(ws));
  return {
    name: `${via === 'flag' ? '--dir' : 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE'} ${name}`,
    dirArgs: (ws) => (via === 'flag' ? ['--dir', named(ws)] : []),
    env: (ws) => (via === 'env' ? { CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: named(ws) } : {}),
    confined: () => undefined,
    exit: { default: 2 },
    mustNotExist,
  };
};

/** A UNC path that POSIX path functions fold into the workspace: if it were accepted, the writes stay in the test's folder. */
const uncPath = (ws: Workspace) => `/${ws.root}/unc-memory`;

// A passwd file of the test's own, not /etc/passwd: these tests may run as root, and it must be checked for changes.
const symlinkedIndex = (ws: Workspace) => {
  fs.rmSync(path.join(ws.memory, 'MEMORY.md'));
  fs.symlinkSync(path.join(ws.outside, 'passwd'), path.join(ws.memory, 'MEMORY.md'));
};
const symlinkedIndexExit = { default: REFUSED, where: 0, lint: 1, recall: 0 };

const pointerCase = (name: string, target: (ws: Workspace) => string): HostileCase => ({
  name: `a pointer ${name}`,
  setup: (ws) => addPointer(ws, target(ws)),
  forget: target,
  // Readers that do not follow pointers answer normally; refactor may refuse or leave the pointer.
  exit: { default: 0, lint: 1, 'lint --fix': 1, refactor: ANY, forget: 1 },
});

const CASES: HostileCase[] = [
  { name: '--dir relative (from the working directory)', dirArgs: () => ['--dir', 'memory'], exit: { default: 0 } },
  invalidDir('short', '/a', 'flag', ['/a']),
  invalidDir('root', '/', 'flag', ['/.memdir', '/MEMORY.md']),
  invalidDir('UNC', uncPath, 'flag'),
  invalidDir('relative', 'memory', 'env'),
  invalidDir('short', '/a', 'env', ['/a']),
  invalidDir('root', '/', 'env', ['/.memdir', '/MEMORY.md']),
  invalidDir('UNC', uncPath, 'env'),
  {
    // Neither argv nor the environment can carry a NUL byte; a settings file can.
    name: 'autoMemoryDirectory with a NUL byte (trusted local settings)',
    setup: (ws) => writeTree(ws.project, { '.claude/settings.local.json': JSON.stringify({ autoMemoryDirectory: `${ws.memory}\u0000x` }) }),
    dirArgs: () => [],
    confined: () => undefined,
    exit: { default: 2 },
  },
  { name: 'MEMORY.md a symlink to a passwd file', setup: symlinkedIndex, exit: symlinkedIndexExit },
  {
    name: 'CLAUDE_COWORK_MEMORY_PATH_OVERRIDE to a directory whose MEMORY.md is a symlink to a passwd file',
    setup: symlinkedIndex,
    dirArgs: () => [],
    env: (ws) => ({ CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: ws.memory }),
    exit: symlinkedIndexExit,
  },
  {
    name: 'a topic file symlinked out of the directory',
    setup: (ws) => {
      fs.symlinkSync(path.join(ws.outside, 'secret.md'), path.join(ws.memory, 'reference_override.md'));
      addPointer(ws, 'reference_override.md');
    },
    forget: () => 'reference_override.md',
    exit: { default: 0, lint: 1, 'lint --fix': REFUSED, refactor: ANY, forget: 1 },
  },
  pointerCase('with ..', () => '../../outside/secret.md'),
  pointerCase('with an absolute path', (ws) => path.join(ws.outside, 'secret.md')),
  pointerCase('with file://', (ws) => `file://${path.join(ws.outside, 'secret.md')}`),
  {
    name: 'a directory named MEMORY.md',
    setup: (ws) => {
      fs.renameSync(path.join(ws.memory, 'MEMORY.md'), path.join(ws.outside, 'index-moved-away.md'));
      writeTree(ws.memory, { 'MEMORY.md/notes.md': 'a folder where the index should be\n' });
    },
    exit: { default: REFUSED, where: 0, lint: 1, recall: 0 },
  },
  {
    name: 'a committed .claude/settings.json aiming at ~/.ssh',
    setup: (ws) => writeTree(ws.project, { '.claude/settings.json': JSON.stringify({ autoMemoryDirectory: '~/.ssh' }) }),
    dirArgs: () => [],
    // Ignored with a warning: the default directory for the project is used instead (it does not exist yet).
    confined: (ws) => path.join(ws.home, '.claude/projects', ws.project.replace(/[^A-Za-z0-9]/g, '-'), 'memory'),
    exit: { default: 0, lint: ANY, 'lint --fix': ANY, refactor: 2, recall: ANY, forget: 1 },
    warns: true,
  },
];

function commandLine(command: Command, ws: Workspace, forget: string): { args: string[]; input?: string } {
  const hookInput = (event: string, extra: object) => JSON.stringify({ session_id: 'hostile', hook_event_name: event, cwd: ws.project, ...extra });
  switch (command) {
    case 'context --hook':
      return { args: ['context', '--hook'], input: hookInput('SessionStart', { source: 'startup' }) };
    case 'recall --hook':
      return { args: ['recall', '--hook'], input: hookInput('UserPromptSubmit', { prompt: 'when is the deploy freeze override' }) };
    case 'recall':
      return { args: ['recall', 'deploy freeze override'] };
    case 'save':
      return { args: ['save', '--type', 'reference', '--name', 'Release wiki', '--description', 'where the release wiki lives', '--body', 'https://wiki.example.com/release'] };
    case 'forget':
      return { args: ['forget', forget] };
    default:
      return { args: command.split(' ') };
  }
}

/** Everything under the workspace but the directory memdir may touch. */
function outsideState(ws: Workspace, confined: string | undefined): Record<string, string> {
  const inside = confined && path.relative(ws.root, confined);
  return Object.fromEntries(Object.entries(snapshotTree(ws.root)).filter(([file]) => !inside || !(file === inside || file.startsWith(`${inside}/`))));
}

describe.each(CASES)('$name', (hostile) => {
  test('every command: one line, the right exit code, nothing read, printed or changed outside the directory', async () => {
    const problems = await inPool(COMMANDS, 3, async (command) => {
      const ws = workspace();
      hostile.setup?.(ws);
      const confined = hostile.confined ? hostile.confined(ws) : ws.memory;
      const before = outsideState(ws, confined);
      const absent = (hostile.mustNotExist ?? []).filter((p) => !fs.existsSync(p));
      const { args, input } = commandLine(command, ws, hostile.forget?.(ws) ?? 'reference_freeze.md');
      const env = cleanEnv(ws.home, hostile.env?.(ws));
      const r = await runMemdir([...args, ...(hostile.dirArgs?.(ws) ?? ['--dir', ws.memory])], { cwd: ws.project, env, input });

      const found: string[] = [];
      const allowed = command.endsWith('--hook') ? [0] : [hostile.exit[command] ?? hostile.exit.default].flat();
      if (!allowed.includes(r.code)) found.push(`exit ${r.code}, expected ${allowed.join(' or ')}`);
      const lines = r.stderr.split('\n').filter((l) => l.trim());
      if (lines.length > (hostile.warns ? 2 : 1)) found.push(`${lines.length} lines on stderr: ${lines.slice(0, 3).join(' | ')}`);
      if (STACK_TRACE.test(r.stderr)) found.push('a stack trace');
      const printed = MARKERS.filter((m) => r.stdout.includes(m) || r.stderr.includes(m));
      if (printed.length) found.push(`printed outside content: ${printed.join(', ')}`);
      if (JSON.stringify(outsideState(ws, confined)) !== JSON.stringify(before)) found.push('changed files outside the directory');
      for (const created of absent.filter((p) => fs.existsSync(p))) {
        found.push(`created ${created}`);
        fs.rmSync(created, { recursive: true, force: true });
      }
      const left = confined ? leftovers(confined) : [];
      if (left.length) found.push(`left ${left.join(', ')}`);
      return found.map((f) => `${command}: ${f}`);
    });
    expect(problems.flat()).toEqual([]);
  }, 120_000);
});
