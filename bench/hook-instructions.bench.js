// The prompt hook's cost in CPU instructions (valgrind's callgrind), against `node -e ""` counted the
// same way: on these noisy virtual machines wall-clock ratios move by ±10% from one run to the next,
// instruction counts by about 1%. Not the goal's measure (that is wall clock, `recall-index`), but the
// one to tell a change of a few percent from the noise. Skipped when valgrind is not installed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateMemoryDir, hookEnv, median, report, root } from './lib.js';

const bin = path.join(root, 'bin/memdir.cjs');
const QUERY = 'can I merge the mobile branch during the release freeze?';

/**
 * Instructions of one process under callgrind, less Node's start-up primality test (`detail::sprp`),
 * whose count alone varies by ~8 million from run to run.
 */
function instructions(args, { env, input }) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-callgrind-')), 'callgrind.out');
  const run = spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...args], { env, input, stdio: ['pipe', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`valgrind node ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  const annotated = spawnSync('callgrind_annotate', ['--threshold=100', out], { encoding: 'utf8' }).stdout;
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  const count = (pattern) => Number(annotated.match(pattern)?.[1]?.replaceAll(',', '') ?? 0);
  return count(/^\s*([\d,]+) .*PROGRAM TOTALS/m) - count(/^\s*([\d,]+) .*detail::sprp/m);
}

export default function hookInstructions({ rounds = 3 } = {}) {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.log('hook-instructions: valgrind is not installed; skipped');
    return undefined;
  }
  const dir = generateMemoryDir(200);
  const env = hookEnv(dir);
  let session = 0;
  const hook = () => instructions([bin, 'recall', '--hook', '--dir', dir], { env, input: JSON.stringify({ session_id: `instructions-${session++}`, cwd: dir, prompt: QUERY }) });
  try {
    // Outside valgrind: the index and the bundle's code cache are made by ordinary runs, as a user's are.
    for (let i = 0; i < 2; i++) spawnSync(process.execPath, [bin, 'recall', '--hook', '--dir', dir], { env, input: JSON.stringify({ session_id: `warm-${i}`, cwd: dir, prompt: QUERY }) });
    const node = [];
    const hooks = [];
    for (let i = 0; i < rounds; i++) {
      node.push(instructions(['-e', ''], { env, input: '' }));
      hooks.push(hook());
    }
    const [bare, warm] = [median(node), median(hooks)];
    const millions = (n) => `${(n / 1e6).toFixed(1)} M`;
    report(`recall --hook, 200 memories, warm index: CPU instructions (callgrind, median of ${rounds})`, [
      ['node -e ""', millions(bare)],
      ['recall --hook (fast path)', `${millions(warm)} (${(warm / bare).toFixed(2)}×)`],
    ]);
    return { bare, warm };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
