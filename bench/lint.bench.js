// `memdir lint` of a generated 5,000-file directory, as whole processes, against
// markdownlint-cli2 on the same files and a bare Node process reading them.
import fs from 'node:fs';
import path from 'node:path';
import { baseBin, compare, generateMemoryDir, report, root, timeCommand } from './lib.js';

// Linters exit 1 when they find errors; only higher codes are failures. Their reports
// are not kept, but stderr is buffered in full: a child cut off at the default 1 MB would be killed mid-run.
const timeProcess = (args) => timeCommand(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: '1' } }, [0, 1]);

export default function lint({ files = 5000, rounds = 5 } = {}) {
  const dir = generateMemoryDir(files);
  try {
    const memdir = [path.join(root, 'bin/memdir.cjs'), 'lint', dir, '--format', 'json'];
    const markdownlint = [path.join(root, 'node_modules/markdownlint-cli2/markdownlint-cli2-bin.mjs'), `${dir}/**/*.md`];
    const bare = [path.join(root, 'bench/bare-read.js'), dir];
    // BENCH_BASE: the same lint by another built checkout, interleaved with this one's (before/after in one run).
    const base = baseBin && [baseBin, 'lint', dir, '--format', 'json'];
    for (const args of [memdir, markdownlint, bare, ...(base ? [base] : [])]) timeProcess(args); // warm the page cache
    const medians = compare(
      { bare: () => timeProcess(bare), memdir: () => timeProcess(memdir), markdownlint: () => timeProcess(markdownlint), ...(base && { base: () => timeProcess(base) }) },
      rounds,
    );
    // The same directory with MEM015 off: a base from before that rule's sentence check does the same work, so the
    // ratio is the cost of everything else (the secret rules above all); this directory's small vocabulary trips MEM015 10,000 times.
    let sameWork;
    if (base) {
      fs.writeFileSync(path.join(dir, 'memdir.config.json'), JSON.stringify({ rules: { MEM015: 'off' } }));
      sameWork = compare({ memdir: () => timeProcess(memdir), base: () => timeProcess(base) }, rounds);
    }
    report(`lint of ${files} files (whole processes, median of ${rounds}, interleaved)`, [
      ['bare Node process reading the files', `${medians.bare.toFixed(0)} ms`],
      ['memdir lint --format json', `${medians.memdir.toFixed(0)} ms`],
      ['markdownlint-cli2 (default rules)', `${medians.markdownlint.toFixed(0)} ms`],
      ['markdownlint-cli2 / memdir (goal ≥ 15×)', `${(medians.markdownlint / medians.memdir).toFixed(1)}×`],
      ['memdir / bare (goal ≤ 3×)', `${(medians.memdir / medians.bare).toFixed(2)}×`],
      ...(base
        ? [
            [`BENCH_BASE ${process.env.BENCH_BASE} lint`, `${medians.base.toFixed(0)} ms`],
            ['memdir / BENCH_BASE', `${(medians.memdir / medians.base).toFixed(3)}×`],
            ['MEM015 off: memdir', `${sameWork.memdir.toFixed(0)} ms`],
            ['MEM015 off: BENCH_BASE', `${sameWork.base.toFixed(0)} ms`],
            ['MEM015 off: memdir / BENCH_BASE (goal ≤ 1.10×)', `${(sameWork.memdir / sameWork.base).toFixed(3)}×`],
          ]
        : []),
    ]);
    return medians;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
