// `memdir refactor` of a generated 5,000-line, 400-section index: wall time and peak memory,
// next to a bare Node process reading the same directory (the floor for any Node tool).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { bloatedIndex } from './generators.js';
import { median, report, root } from './lib.js';

/** Wall ms and peak RSS (KB, from GNU time when present) of one process. */
function measure(args) {
  const gnuTime = fs.existsSync('/usr/bin/time');
  const command = gnuTime ? '/usr/bin/time' : process.execPath;
  const argv = gnuTime ? ['-f', '%M', process.execPath, ...args] : args;
  const start = process.hrtime.bigint();
  const result = spawnSync(command, argv, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const rss = gnuTime ? Number(result.stderr.trim().split('\n').pop()) : NaN;
  return { ms, rss };
}

export default function refactor({ sections = 400, linesPerSection = 12, rounds = 3 } = {}) {
  const text = bloatedIndex(sections, linesPerSection);
  const runs = [];
  const bare = [];
  const writes = [];
  for (let i = 0; i < rounds; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-refactor-'));
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), text);
    try {
      bare.push(measure([path.join(root, 'bench/bare-read.js'), dir]));
      runs.push(measure([path.join(root, 'bin/memdir.cjs'), 'refactor', '--dir', dir, '--quiet']));
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.md')).length;
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-write-'));
      writes.push({ ...measure([path.join(root, 'bench/bare-write.js'), scratch, String(files)]), files });
      fs.rmSync(scratch, { recursive: true, force: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const wall = median(runs.map((r) => r.ms));
  const rss = Math.max(...runs.map((r) => r.rss));
  report(`refactor of a ${text.split('\n').length}-line, ${sections}-section index (median of ${rounds})`, [
    ['bare Node process (startup + read)', `${median(bare.map((r) => r.ms)).toFixed(0)} ms, ${(Math.max(...bare.map((r) => r.rss)) / 1024).toFixed(0)} MB peak`],
    [`bare Node process writing ${writes[0].files} files (temp + fsync + rename)`, `${median(writes.map((r) => r.ms)).toFixed(0)} ms`],
    ['memdir refactor (goal < 2 s)', `${wall.toFixed(0)} ms, ${(rss / 1024).toFixed(0)} MB peak`],
  ]);
  return { wall, rss };
}
