// Recall quality on the frozen evaluation set (bench/recall/quality.js), then speed.
import path from 'node:path';
import fs from 'node:fs';
import recallQuality from './recall/quality.js';
import { bareReadLoop, compare, generateMemoryDir, report, root, time } from './lib.js';

export default async function recall({ files = 5000 } = {}) {
  await recallQuality();
  const { loadDocs, RecallIndex } = await import(path.join(root, 'dist/internal.js'));

  // Speed: cold = read every file and build the index, as one command does; warm = query a built index.
  const dir = generateMemoryDir(files);
  try {
    bareReadLoop(dir);
    let index;
    const medians = compare(
      {
        bare: () => time(() => bareReadLoop(dir)),
        cold: () =>
          time(() => {
            index = new RecallIndex(loadDocs(dir));
            index.search('deploy release freeze', { limit: 5 });
          }),
      },
      5,
    );
    const warm = time(() => index.search('billing latency dashboard merge', { limit: 5 }));
    report(`recall over ${files} generated files`, [
      ['bare Node loop reading the files', `${medians.bare.toFixed(0)} ms`],
      ['cold: read, index, query (goal ≤ 3× bare)', `${medians.cold.toFixed(0)} ms (${(medians.cold / medians.bare).toFixed(2)}×)`],
      ['warm: query a built index (goal ≤ 150 ms)', `${warm.toFixed(1)} ms`],
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
