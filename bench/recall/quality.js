// Recall quality on the frozen evaluation set (bench/recall/SOURCES.md): memdir's local ranker
// against MiniSearch on the dev and test splits, the prompt hook's abstention on real prompts with
// no relevant memory, and one row per ranking idea (each switched against the chosen defaults).
import path from 'node:path';
import { report, root } from '../lib.js';
import { evaluationSets, miniSearchRanker, negativePrompts, REAL_DIR, runRankers, score } from './evaluate.js';

const V1 = { weights: { name: 2.5, description: 3, body: 1 }, synonyms: true, cutoff: 0.3, proximity: 0 };
/** Each idea as a change to the defaults the dev split chose (src/recall/rank.ts DEFAULT_TUNING). */
const IDEAS = {
  'former ranker (v1: boosts 2.5/3/1, synonyms, relative cutoff 0.3)': V1,
  'without the fitted field weights (back to 2.5/3/1)': { weights: V1.weights },
  'description strongest by far (1/4/1)': { weights: { name: 1, description: 4, body: 1 } },
  'with the relative cutoff 0.3 (v1)': { cutoff: 0.3 },
  'without the proximity bonus': { proximity: 0 },
  'with the synonym table': { synonyms: true },
  'with date terms ("7 Jan 2024" = "2024-01-07")': { dateTerms: true },
  'with pseudo-relevance feedback (3 docs, 10 terms, 0.3)': { feedback: { docs: 3, terms: 10, weight: 0.3 } },
  'with co-occurrence expansion (3 words, 0.3)': { cooccurrence: { terms: 3, weight: 0.3 } },
};

const pct = (x) => (x * 100).toFixed(1);
const cell = (s) => `${pct(s.recallAt5)} / ${s.mrr.toFixed(3)}`;

export default async function recallQuality() {
  const { loadDocs, RecallIndex } = await import(path.join(root, 'dist/internal.js'));
  const memdir = (search) => (docs) => {
    const index = new RecallIndex(docs);
    return (query) => index.search(query, { limit: 5, ...search }).map((r) => r.doc.path);
  };
  const rankers = { memdir: memdir({}), hook: memdir({ abstain: true }), mini: miniSearchRanker };
  for (const [name, tuning] of Object.entries(IDEAS)) rankers[name] = memdir({ tuning });
  const { sets, cleanup } = evaluationSets(['dev', 'test']);
  let results;
  try {
    results = runRankers(sets, rankers, loadDocs);
  } finally {
    cleanup();
  }
  const scored = (key, name) => score(results[key][name].rankings, results[key][name].queries);

  const rows = [];
  for (const key of ['english/dev', 'english/test', 'realtalk/dev', 'realtalk/test', 'real/test', 'memsim/dev', 'memsim/test']) {
    const [a, b] = [scored(key, 'memdir'), scored(key, 'mini')];
    rows.push([`${key} (${a.n} queries): memdir vs MiniSearch, recall@5 / MRR`, `${cell(a)} vs ${cell(b)} (${pct(a.recallAt5 - b.recallAt5)} points, MRR ${(a.mrr - b.mrr).toFixed(3)})`]);
  }
  report('recall quality, frozen evaluation set (goal on english/test: ≥ +5 points, MRR ≥ +0.05)', rows);

  const realIndex = new RecallIndex(loadDocs(REAL_DIR));
  const abstention = [];
  for (const split of ['dev', 'test']) {
    const negatives = negativePrompts([split]);
    const injected = negatives.filter((n) => realIndex.search(n.prompt, { limit: 5, abstain: true }).length > 0).length;
    const [hook, plain] = [scored(`english/${split}`, 'hook'), scored(`english/${split}`, 'memdir')];
    abstention.push([`${split}: ${negatives.length} prompts with no relevant memory, nothing injected (goal ≥ 80%)`, `${pct(1 - injected / negatives.length)}%`]);
    abstention.push([`${split}: english recall@5 / MRR with the hook's abstention (without)`, `${cell(hook)} (${cell(plain)})`]);
    if (split === 'test') abstention.push([`${split}: real directory only, with abstention (without)`, `${cell(scored('real/test', 'hook'))} (${cell(scored('real/test', 'memdir'))})`]);
    abstention.push([`${split}: MemSim (Chinese) with abstention (without)`, `${cell(scored(`memsim/${split}`, 'hook'))} (${cell(scored(`memsim/${split}`, 'memdir'))})`]);
  }
  report('recall --hook abstention (application-pipeline directory; negatives from entireio/cli sessions)', abstention);

  const ideas = Object.keys(IDEAS).map((name) => {
    const [dev, test] = ['dev', 'test'].map((split) => scored(`english/${split}`, name));
    return [name, `dev ${cell(dev)} · test ${cell(test)}`];
  });
  const [dev, test] = ['dev', 'test'].map((split) => scored(`english/${split}`, 'memdir'));
  ideas.unshift(['chosen defaults (recall@5 / MRR)', `dev ${cell(dev)} · test ${cell(test)}`]);
  report('recall ideas, english split (each changes one thing in the chosen defaults)', ideas);
}
