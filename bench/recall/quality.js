// Recall quality on the frozen evaluation set (bench/recall/SOURCES.md): memdir's local ranker
// against MiniSearch on the dev and test splits, the prompt hook's abstention on real prompts with
// no relevant memory, and one row per ranking idea (each switched against the chosen defaults).
// `node bench/recall/quality.js dev` scores the dev split only (for tuning: the test split stays unseen).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { report, root } from '../lib.js';
import { evaluationSets, koreanNegatives, miniSearchRanker, negativePrompts, REAL_DIR, runRankers, score } from './evaluate.js';
import { passageFusion, readWordVectors, semanticRanker, wordVectorFusion } from './fusion.js';

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
  'without the date-nearness bonus (memories dated 0–3 days after a day the query names)': { dateNear: null },
  'with pseudo-relevance feedback (3 docs, 10 terms, 0.3)': { feedback: { docs: 3, terms: 10, weight: 0.3 } },
  'with co-occurrence expansion (3 words, 0.3)': { cooccurrence: { terms: 3, weight: 0.3 } },
  'BM25 k1 2.2 (the best dev cell of k1 0.8–2.2 × b 0.3–0.9)': { k1: 2.2 },
  'BM25 b 0.5': { b: 0.5 },
};

/** Ideas that add a second score to the ranking (bench/recall/fusion.js); word vectors only when given. */
async function fusionIdeas() {
  const ideas = { 'with passage-level BM25 fused (5-line windows, weight 1)': await passageFusion({ window: 5, weight: 1 }) };
  const file = process.env.MEMDIR_WORD_VECTORS;
  if (file) {
    const vectors = readWordVectors(file);
    for (const weight of [0.5, 1.2]) ideas[`with GloVe word-vector cosine fused (weight ${weight})`] = await wordVectorFusion({ vectors, weight });
  }
  return ideas;
}

/** `recall` outside the prompt hook: the words plus the sentence model (when its optional packages are installed). */
const SEMANTIC = 'memdir recall (words + sentence model)';

/** The hook's former abstention rule (task words counted as topic words, any mention held in full), compared with the one kept. */
const FORMER_ABSTENTION = { known: 0.5, all: 0.4, words: 2, taskWords: false, heldAt: 0 };
/** The trade-off curve: both coverage thresholds of a rule scaled by each factor. */
const SCALES = [0.5, 0.75, 1, 1.25, 1.5];
const scaled = (rule, s) => ({ ...rule, known: rule.known * s, all: rule.all * s });

const pct = (x) => (x * 100).toFixed(1);
const cell = (s) => `${pct(s.recallAt5)} / ${s.mrr.toFixed(3)}`;

export default async function recallQuality({ splits = ['dev', 'test'] } = {}) {
  const { loadDocs, RecallIndex, DEFAULT_TUNING } = await import(path.join(root, 'dist/internal.js'));
  const ABSTENTION = { kept: DEFAULT_TUNING.abstain, former: FORMER_ABSTENTION };
  /** One part of the kept rule switched off at a time (thresholds unchanged). */
  const ABLATIONS = { 'kept rule, task words counted': { taskWords: false }, 'kept rule, any mention held in full': { heldAt: 0 } };
  const memdir = (search) => (docs) => {
    const index = new RecallIndex(docs);
    return (query) => index.search(query, { limit: 5, ...search }).map((r) => r.doc.path);
  };
  const hook = (rule, s) => memdir({ abstain: true, tuning: { abstain: scaled(rule, s) } });
  const rankers = { memdir: memdir({}), hook: memdir({ abstain: true }), mini: await miniSearchRanker() };
  for (const [name, rule] of Object.entries(ABSTENTION)) for (const s of SCALES) rankers[`hook ${name} ×${s}`] = hook(rule, s);
  for (const [name, change] of Object.entries(ABLATIONS)) rankers[`hook ${name}`] = hook({ ...DEFAULT_TUNING.abstain, ...change }, 1);
  for (const [name, tuning] of Object.entries(IDEAS)) rankers[name] = memdir({ tuning });
  const fusions = await fusionIdeas();
  Object.assign(rankers, fusions);
  const { sets, cleanup } = evaluationSets(splits);
  let results;
  let semantic = false;
  try {
    const withModel = await semanticRanker(sets, loadDocs);
    if (withModel) {
      rankers[SEMANTIC] = withModel;
      semantic = true;
    } else process.stderr.write('the sentence model (optional dependencies @energetic-ai/*) is not installed: recall is scored on words alone\n');
    results = runRankers(sets, rankers, loadDocs);
  } finally {
    cleanup();
  }
  const scored = (key, name) => score(results[key][name].rankings, results[key][name].queries);
  const keys = ['english', 'realtalk', 'real', 'memsim', 'korean'].flatMap((set) => splits.map((split) => `${set}/${split}`)).filter((key) => results[key]);

  const rows = [];
  const versus = (a, b) => `${cell(a)} vs ${cell(b)} (${pct(a.recallAt5 - b.recallAt5)} points, MRR ${(a.mrr - b.mrr).toFixed(3)})`;
  for (const key of keys) {
    const [words, mini] = [scored(key, 'memdir'), scored(key, 'mini')];
    if (semantic) rows.push([`${key} (${words.n} queries): memdir recall (words + sentence model) vs MiniSearch, recall@5 / MRR`, versus(scored(key, SEMANTIC), mini)]);
    rows.push([`${key} (${words.n} queries): memdir words only (the prompt hook's ranking) vs MiniSearch`, versus(words, mini)]);
  }
  report('recall quality, frozen evaluation set (goal on english/test: ≥ +5 points, MRR ≥ +0.05)', rows);

  // Negatives are asked of their own directory (the Korean ones), else of the real one.
  const indexes = new Map();
  const indexOf = (dir) => indexes.get(dir) ?? indexes.set(dir, new RecallIndex(loadDocs(dir))).get(dir);
  const silentShare = (negatives, tuning) => 1 - negatives.filter((n) => indexOf(n.dir ?? REAL_DIR).search(n.prompt, { limit: 5, abstain: true, tuning }).length > 0).length / negatives.length;
  const abstention = [];
  const curve = [];
  // Without public.jsonl (not shipped) only the real directory and the Korean prompts are scored: absent sets are left out.
  const withAndWithout = (key) => `${cell(scored(key, 'hook'))} (${cell(scored(key, 'memdir'))})`;
  const recallAt5Of = (ranker, split) =>
    [
      ['english', 'english'],
      ['real', 'real'],
      ['memsim', 'MemSim'],
    ]
      .filter(([set]) => results[`${set}/${split}`])
      .map(([set, label]) => ` · ${label} ${pct(scored(`${set}/${split}`, ranker).recallAt5)}`)
      .join('');
  const present = [
    ['english', "english recall@5 / MRR with the hook's abstention (without)"],
    ['real', 'real directory only, with abstention (without)'],
    ['memsim', 'MemSim (Chinese) with abstention (without)'],
    ['korean', 'Korean (real directories) with abstention (without)'],
  ];
  for (const split of splits) {
    const negatives = negativePrompts([split]);
    abstention.push([`${split}: ${negatives.length} prompts with no relevant memory, nothing injected (goal ≥ 80%)`, `${pct(silentShare(negatives, {}))}%`]);
    const korean = koreanNegatives([split]);
    if (korean.length) abstention.push([`${split}: ${korean.length} Korean prompts with no relevant memory, nothing injected`, `${pct(silentShare(korean, {}))}%`]);
    for (const [set, label] of present) if (results[`${set}/${split}`]) abstention.push([`${split}: ${label}`, withAndWithout(`${set}/${split}`)]);
    for (const [name, rule] of Object.entries(ABSTENTION))
      for (const s of SCALES)
        curve.push([
          `${split}: ${name} rule, thresholds ×${s} (${(rule.all * s).toFixed(2)} / ${(rule.known * s).toFixed(2)})`,
          `silent ${pct(silentShare(negatives, { abstain: scaled(rule, s) }))}%${recallAt5Of(`hook ${name} ×${s}`, split)}`,
        ]);
    for (const [name, change] of Object.entries(ABLATIONS))
      curve.push([`${split}: ${name}`, `silent ${pct(silentShare(negatives, { abstain: { ...DEFAULT_TUNING.abstain, ...change } }))}%${recallAt5Of(`hook ${name}`, split)}`]);
  }
  report('recall --hook abstention (application-pipeline directory; negatives from entireio/cli sessions)', abstention);
  report('abstention trade-off: share of negatives silenced vs recall@5 with abstention', curve);

  const englishSplits = splits.filter((split) => results[`english/${split}`]);
  const onEnglish = (name) => englishSplits.map((split) => `${split} ${cell(scored(`english/${split}`, name))}`).join(' · ');
  const ideas = [...Object.keys(IDEAS), ...Object.keys(fusions)].map((name) => [name, onEnglish(name)]);
  ideas.unshift(['chosen defaults (recall@5 / MRR)', onEnglish('memdir')]);
  if (semantic) ideas.splice(1, 0, [`${SEMANTIC} (kept, outside the prompt hook)`, onEnglish(SEMANTIC)]);
  report('recall ideas, english split (each changes one thing in the chosen defaults)', ideas);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await recallQuality({ splits: process.argv.length > 2 ? process.argv.slice(2) : undefined });
