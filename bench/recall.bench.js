// Recall quality on the frozen evaluation set (bench/recall/quality.js), then speed.
import path from 'node:path';
import fs from 'node:fs';
import recallQuality from './recall/quality.js';
import { bareReadLoop, benchEnv, compare, environmentLabel, generateMemoryDir, report, root, time, timeBareNode, timeCommand } from './lib.js';

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
  commandLine();
}

/** `memdir recall` as a whole process on 200 memories: words alone, with the sentence model (store warm, and first run). */
function commandLine(rounds = 7) {
  const dir = generateMemoryDir(200);
  const env = benchEnv();
  const vectors = path.join(dir, '.memdir/recall-vectors.json');
  const recallWith = (...flags) =>
    timeCommand(process.execPath, [path.join(root, 'bin/memdir.cjs'), 'recall', '--dir', dir, ...flags, 'can I merge the mobile branch during the release freeze?'], { env });
  try {
    recallWith(); // builds the index and the vector store
    const lines = Object.keys(JSON.parse(fs.readFileSync(vectors, 'utf8')).lines).length;
    const medians = compare(
      {
        node: () => timeBareNode(env),
        words: () => recallWith('--no-semantic'),
        meaning: () => recallWith(),
        firstRun: () => {
          fs.rmSync(vectors, { force: true });
          return recallWith();
        },
      },
      rounds,
    );
    const ratio = (ms) => `${ms.toFixed(0)} ms (${(ms / medians.node).toFixed(1)}× node -e "")`;
    report(`memdir recall "<query>" over 200 generated memories, ${lines} distinct lines embedded (median of ${rounds}, interleaved, ${environmentLabel})`, [
      ['node -e ""', `${medians.node.toFixed(1)} ms`],
      ['words only (--no-semantic)', ratio(medians.words)],
      ['words + sentence model, vectors kept from the last run', ratio(medians.meaning)],
      ['words + sentence model, first run (embeds the lines of the memories the words found)', ratio(medians.firstRun)],
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
