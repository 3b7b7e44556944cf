// `lint --fix` of indexes of 2k to 28k dead pointers (next to 28k live ones) (it was quadratic: 28k took 79 s, long
// enough to lose the lock). Timed in one process, interleaved with a bare Node function that
// drops the same pointers and writes the index back safely; the time of an empty index is taken
// off, so what is left is the time per pointer, flat when --fix is linear. The largest size is
// also timed as whole processes, as a user runs it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deadPointerIndex, liveTopics } from './generators.js';
import { bareFixIndex, median, report, root, time, timeCommand } from './lib.js';

async function timeAsync(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export default async function lintFix({ sizes = [2000, 5000, 10000, 28000], rounds = 5, processRounds = 3 } = {}) {
  const { lint, DEFAULT_CONFIG } = await import(path.join(root, 'dist/index.js'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-fix-'));
  const largest = sizes[sizes.length - 1];
  // More live pointers than dead ones: a mostly dead index is left alone (the files live elsewhere).
  const live = liveTopics(largest + 1);
  for (const [file, text] of Object.entries(live.files)) fs.writeFileSync(path.join(dir, file), text);
  const fresh = (pointers) => fs.writeFileSync(path.join(dir, 'MEMORY.md'), `${live.index}${deadPointerIndex(pointers)}`);
  const memdir = () => lint({ dirs: [dir], cwd: dir, config: DEFAULT_CONFIG, fix: true });
  try {
    const samples = new Map([0, ...sizes].map((n) => [n, { memdir: [], bare: [] }]));
    // one warm-up, then rounds interleaved across sizes and candidates
    fresh(largest);
    await memdir();
    for (let round = 0; round < rounds; round++) {
      for (const [pointers, s] of samples) {
        fresh(pointers);
        s.memdir.push(await timeAsync(memdir));
        fresh(pointers);
        s.bare.push(time(() => bareFixIndex(dir)));
      }
    }
    const ms = (pointers, name) => median(samples.get(pointers)[name]);
    const perPointer = (pointers, name) => ((ms(pointers, name) - ms(0, name)) * 1000) / pointers;

    const whole = { memdir: [], bare: [] };
    for (let round = 0; round < processRounds; round++) {
      for (const [name, args] of [
        ['memdir', [path.join(root, 'bin/memdir.cjs'), 'lint', '--fix', '--quiet', '--dir', dir]],
        ['bare', [path.join(root, 'bench/bare-fix.js'), dir]],
      ]) {
        fresh(largest);
        whole[name].push(timeCommand(process.execPath, args, { env: { ...process.env, NO_COLOR: '1' } }, [0, 1]));
      }
    }

    const ratio = perPointer(largest, 'memdir') / perPointer(sizes[0], 'memdir');
    report(`lint --fix of dead pointers (in one process, median of ${rounds}, interleaved; the live-only index's time taken off)`, [
      [`live pointers only (${largest + 1}): memdir / bare`, `${ms(0, 'memdir').toFixed(1)} ms / ${ms(0, 'bare').toFixed(1)} ms`],
      ...sizes.map((n) => [
        `${n} pointers: memdir / bare`,
        `${ms(n, 'memdir').toFixed(0)} ms / ${ms(n, 'bare').toFixed(0)} ms; per pointer ${perPointer(n, 'memdir').toFixed(1)} µs / ${perPointer(n, 'bare').toFixed(1)} µs`,
      ]),
      [`memdir per pointer, ${largest} / ${sizes[0]} (linear ≈ 1×)`, `${ratio.toFixed(2)}×`],
      [`whole processes at ${largest}: memdir / bare (median of ${processRounds})`, `${median(whole.memdir).toFixed(0)} ms / ${median(whole.bare).toFixed(0)} ms`],
    ]);
    return { ratio };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
