// Recall quality (recall@5, MRR) of memdir's local engine against MiniSearch (BM25, Porter stemming,
// stop words, the same field boosts) on the same labelled queries, in one run; then speed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { generatedCorpus } from './recall/generated.js';
import { bareReadLoop, compare, generateMemoryDir, report, root, time } from './lib.js';

const STOP = new Set(
  'a an and are as at be but by can do for from has have how i if in into is it its me my no not of on or our should so that the their there these they this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

function realSets() {
  const realDir = path.join(root, 'test/fixtures/shared/memory/4444J99+application-pipeline/.claude/memory');
  const queries = fs
    .readFileSync(path.join(root, 'bench/recall/real-queries.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const generatedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-recall-eval-'));
  const generated = generatedCorpus();
  for (const [file, text] of Object.entries(generated.files)) fs.writeFileSync(path.join(generatedDir, file), text);
  return [
    { name: 'real (4444J99/application-pipeline, 54 files)', dir: realDir, queries },
    { name: 'generated (80 files)', dir: generatedDir, queries: generated.queries, cleanup: generatedDir },
  ];
}

function miniSearchFor(docs) {
  const mini = new MiniSearch({
    fields: ['name', 'description', 'body'],
    storeFields: ['path'],
    idField: 'path',
    processTerm: (term) => (STOP.has(term.toLowerCase()) ? null : stemmer(term.toLowerCase())),
    searchOptions: { boost: { name: 2.5, description: 3 }, processTerm: (term) => (STOP.has(term.toLowerCase()) ? null : stemmer(term.toLowerCase())) },
  });
  mini.addAll(docs);
  return (query) =>
    mini
      .search(query)
      .slice(0, 5)
      .map((r) => r.id);
}

function score(rankings, queries) {
  let hits = 0;
  let rr = 0;
  queries.forEach((q, i) => {
    const ranked = rankings[i];
    const relevant = new Set(q.relevant);
    const found = ranked.filter((p) => relevant.has(p)).length;
    hits += found / Math.min(relevant.size, 5);
    const first = ranked.findIndex((p) => relevant.has(p));
    rr += first === -1 ? 0 : 1 / (first + 1);
  });
  return { recallAt5: hits / queries.length, mrr: rr / queries.length };
}

export default async function recall({ files = 5000 } = {}) {
  const { loadDocs, RecallIndex } = await import(path.join(root, 'dist/internal.js'));
  const sets = realSets();
  const rows = [];
  let all = { memdir: [], mini: [], queries: [] };
  try {
    for (const set of sets) {
      const docs = loadDocs(set.dir);
      const index = new RecallIndex(docs);
      const mini = miniSearchFor(docs);
      const memdirRanks = set.queries.map((q) => index.search(q.query, { limit: 5 }).map((r) => r.doc.path));
      const miniRanks = set.queries.map((q) => mini(q.query));
      const a = score(memdirRanks, set.queries);
      const b = score(miniRanks, set.queries);
      rows.push([`${set.name}: ${set.queries.length} queries`, '']);
      rows.push(['  memdir local   recall@5 / MRR', `${(a.recallAt5 * 100).toFixed(1)} / ${a.mrr.toFixed(3)}`]);
      rows.push(['  MiniSearch BM25 recall@5 / MRR', `${(b.recallAt5 * 100).toFixed(1)} / ${b.mrr.toFixed(3)}`]);
      all = { memdir: [...all.memdir, ...memdirRanks], mini: [...all.mini, ...miniRanks], queries: [...all.queries, ...set.queries] };
    }
  } finally {
    for (const set of sets) if (set.cleanup) fs.rmSync(set.cleanup, { recursive: true, force: true });
  }
  const a = score(all.memdir, all.queries);
  const b = score(all.mini, all.queries);
  rows.push([
    `all ${all.queries.length} queries: memdir − MiniSearch recall@5 (goal ≥ +10)`,
    `${((a.recallAt5 - b.recallAt5) * 100).toFixed(1)} points (MRR ${a.mrr.toFixed(3)} vs ${b.mrr.toFixed(3)})`,
  ]);
  report('recall quality (labelled queries in bench/recall/)', rows);

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
