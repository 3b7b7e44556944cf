// `memdir sync` of 1,000 team memory files through a local bare remote: the first
// push, and a no-change re-sync against the floor measured in the same run: `node -e ""`
// (what any Node command costs before its first line) + `git fetch` + `git status` in a
// checked-out clone of the same branch. Goal: no-change sync ≤ 1.5× that floor.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { compareRotated, generateMemoryDir, report, root, timeCommand } from './lib.js';

const env = { ...process.env, NO_COLOR: '1', GIT_TERMINAL_PROMPT: '0' };
const git = (cwd, ...args) => {
  const result = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
};

export default function sync({ files = 1000, rounds = 21 } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-sync-'));
  try {
    const remote = path.join(work, 'remote.git');
    const project = path.join(work, 'project');
    const mem = path.join(work, 'memory');
    git(work, 'init', '--quiet', '--bare', remote);
    git(work, 'init', '--quiet', project);
    git(project, 'remote', 'add', 'origin', remote);
    fs.mkdirSync(mem);
    fs.renameSync(generateMemoryDir(files), path.join(mem, 'team'));
    const memdir = (...args) => [path.join(root, 'bin/memdir.cjs'), 'sync', '--dir', mem, ...args];
    const run = (args) => timeCommand(process.execPath, args, { cwd: project, env });

    const firstPush = run(memdir('push'));
    // The git floor: a clone of the same branch, checked out, asked the same question.
    const clone = path.join(work, 'clone');
    git(work, 'clone', '--quiet', '--branch', 'memdir/team', remote, clone);
    const gitFloor = () => timeCommand('git', ['fetch', '--quiet', 'origin'], { cwd: clone, env }) + timeCommand('git', ['status', '--porcelain'], { cwd: clone, env });
    // The first run that finds nothing to do records the team files' stats (src/sync/no-change.ts);
    // files changed within 2 s of the record are not trusted, so it waits that out first.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_100);
    const fullNoChange = run(memdir());
    const memdirNoChange = () => run(memdir());
    // What any memdir command costs before it does anything: shows how much of the ratio is process startup.
    const startup = () => run([path.join(root, 'bin/memdir.cjs'), 'where', '--dir', mem]);
    const node = () => timeCommand(process.execPath, ['-e', ''], { env });
    // The goal's floor, timed as one candidate: each round's node -e "" + git fetch + git status, summed.
    const floor = () => node() + gitFloor();
    const medians = compareRotated({ git: gitFloor, memdir: memdirNoChange, startup, node, floor }, rounds);
    const ratio = medians.memdir / medians.floor;
    report(`sync of ${files} team files to a local bare remote (whole processes, median of ${rounds}, interleaved, order rotated)`, [
      ['memdir sync push, first push', `${firstPush.toFixed(0)} ms`],
      ['memdir sync, nothing changed, full path (records)', `${fullNoChange.toFixed(0)} ms`],
      ['git fetch + git status of a clone', `${medians.git.toFixed(0)} ms`],
      ['node -e "" (Node\'s own start)', `${medians.node.toFixed(0)} ms (${(medians.node / medians.git).toFixed(2)}× git fetch + git status)`],
      ['floor: node -e "" + git fetch + git status', `${medians.floor.toFixed(0)} ms`],
      ['memdir where (CLI startup alone)', `${medians.startup.toFixed(0)} ms`],
      ['memdir sync, nothing changed (fast path)', `${medians.memdir.toFixed(0)} ms (${(medians.memdir / medians.node).toFixed(2)}× node -e "")`],
      ['memdir / git fetch + git status', `${(medians.memdir / medians.git).toFixed(2)}×`],
      ['memdir / floor (goal ≤ 1.5×)', `${ratio.toFixed(2)}× (${ratio <= 1.5 ? 'met' : 'missed'})`],
    ]);
    return { firstPush, fullNoChange, ...medians, ratio };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
