// Manifest scan of a generated 5,000-file directory against a bare Node loop
// that reads the same files whole, interleaved in one process.
import fs from 'node:fs';
import path from 'node:path';
import { bareReadLoop, compare, generateMemoryDir, report, root, time } from './lib.js';

export default async function scan({ files = 5000, rounds = 15 } = {}) {
  const { scanMemories } = await import(path.join(root, 'dist/internal.js'));
  const dir = generateMemoryDir(files);
  try {
    let found = 0;
    // one warm-up each, so both read from the page cache
    bareReadLoop(dir);
    found = scanMemories(dir, { limit: 0 }).memories.length;
    if (found !== files) throw new Error(`scan found ${found} of ${files} files`);
    const medians = compare(
      {
        bare: () => time(() => bareReadLoop(dir)),
        scan: () => time(() => scanMemories(dir, { limit: 0 })),
      },
      rounds,
    );
    const ratio = medians.scan / medians.bare;
    report(`scan of ${files} files (median of ${rounds}, interleaved)`, [
      ['bare Node loop (readdir + readFileSync)', `${medians.bare.toFixed(1)} ms`],
      ['memdir scanMemories (limit 0)', `${medians.scan.toFixed(1)} ms`],
      ['scan / bare (goal ≤ 2×)', `${ratio.toFixed(2)}×`],
    ]);
    return { ...medians, ratio };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
