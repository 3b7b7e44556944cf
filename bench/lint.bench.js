// `memdir lint` of a generated 5,000-file directory, as whole processes, against
// markdownlint-cli2 on the same files and a bare Node process reading them.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { compare, generateMemoryDir, report, root } from './lib.js';

function timeProcess(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // lint exits 1 when it finds errors; anything above that is a failure.
  if (result.status > 1) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

export default function lint({ files = 5000, rounds = 5 } = {}) {
  const dir = generateMemoryDir(files);
  try {
    const memdir = [path.join(root, 'bin/memdir.cjs'), 'lint', dir, '--format', 'json'];
    const markdownlint = [path.join(root, 'node_modules/markdownlint-cli2/markdownlint-cli2-bin.mjs'), `${dir}/**/*.md`];
    const bare = [path.join(root, 'bench/bare-read.js'), dir];
    for (const args of [memdir, markdownlint, bare]) timeProcess(args); // warm the page cache
    const medians = compare(
      { bare: () => timeProcess(bare), memdir: () => timeProcess(memdir), markdownlint: () => timeProcess(markdownlint) },
      rounds,
    );
    report(`lint of ${files} files (whole processes, median of ${rounds}, interleaved)`, [
      ['bare Node process reading the files', `${medians.bare.toFixed(0)} ms`],
      ['memdir lint --format json', `${medians.memdir.toFixed(0)} ms`],
      ['markdownlint-cli2 (default rules)', `${medians.markdownlint.toFixed(0)} ms`],
      ['markdownlint-cli2 / memdir (goal ≥ 15×)', `${(medians.markdownlint / medians.memdir).toFixed(1)}×`],
      ['memdir / bare (goal ≤ 3×)', `${(medians.memdir / medians.bare).toFixed(2)}×`],
    ]);
    return medians;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
