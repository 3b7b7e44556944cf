// The frozen recall evaluation (bench/recall/SOURCES.md): memory directories written from the
// compact JSONL, queries with their relevant files, negative prompts, and the scores.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { root } from '../lib.js';

const FIXED_MTIME = new Date('2026-01-01T00:00:00Z');

const here = path.join(root, 'bench/recall');
const readJsonl = (file) =>
  fs
    .readFileSync(path.join(here, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

export const REAL_DIR = path.join(root, 'test/fixtures/shared/memory/4444J99+application-pipeline/.claude/memory');

/** A topic file as memdir writes them: YAML frontmatter (JSON strings are valid YAML scalars), then the body. */
function topicFile(file) {
  return `---\nname: ${JSON.stringify(file.name)}\ndescription: ${JSON.stringify(file.description)}\ntype: project\n---\n\n${file.body}\n`;
}

/**
 * Every evaluation directory of `splits`, written under a fresh temporary folder:
 * [{ set, split, dir, queries }]. Call `cleanup()` when done.
 */
export function evaluationSets(splits = ['dev', 'test']) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-recall-eval-'));
  const sets = [];
  const publicSets = fs.existsSync(path.join(here, 'public.jsonl')) ? readJsonl('public.jsonl') : [];
  if (publicSets.length === 0)
    process.stderr.write('bench/recall/public.jsonl is absent (not in git: its sources state no licence); build it with bench/recall/build-public.sh to score REALTALK and MemSim\n');
  for (const record of publicSets) {
    if (!splits.includes(record.split)) continue;
    const dir = path.join(tmp, record.dir);
    fs.mkdirSync(dir);
    for (const file of record.files) {
      const written = path.join(dir, file.path);
      fs.writeFileSync(written, topicFile(file));
      // One fixed age for every memory: the ranker's recency nudge and its tie-break on mtime would
      // otherwise follow the order files happened to be written in, and scores move between runs.
      fs.utimesSync(written, FIXED_MTIME, FIXED_MTIME);
    }
    sets.push({ set: record.set.startsWith('memsim') ? 'memsim' : record.set, split: record.split, dir, queries: record.queries });
  }
  // Copies (times kept): rankers may write their caches into a directory (.memdir/), never into the fixtures.
  const copy = (from, name) => {
    const to = path.join(tmp, name);
    fs.cpSync(from, to, { recursive: true, preserveTimestamps: true });
    return to;
  };
  if (splits.includes('dev')) {
    // Korean dev prompts (korean-dev.jsonl, written after the test prompts, tuned on), those with a relevant memory.
    const korean = readJsonl('korean-dev.jsonl').filter((q) => q.relevant.length > 0);
    for (const dir of new Set(korean.map((q) => q.dir))) {
      sets.push({ set: 'korean', split: 'dev', dir: copy(path.join(root, 'test/fixtures/real', dir), `${dir}-dev`), queries: korean.filter((q) => q.dir === dir) });
    }
  }
  if (splits.includes('test')) {
    sets.push({ set: 'real', split: 'test', dir: copy(REAL_DIR, 'real'), queries: readJsonl('real-queries.jsonl') });
    // Korean prompts over the two Korean directories of the real corpus (written blind to the tokenizer: SOURCES.md).
    const korean = readJsonl('korean-queries.jsonl');
    for (const dir of new Set(korean.map((q) => q.dir))) {
      sets.push({ set: 'korean', split: 'test', dir: copy(path.join(root, 'test/fixtures/real', dir), dir), queries: korean.filter((q) => q.dir === dir) });
    }
  }
  return { sets, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}

/** The Korean dev prompts no memory of their directory answers: [{ dir (under test/fixtures/real), prompt }]. */
export function koreanNegatives(splits = ['dev', 'test']) {
  if (!splits.includes('dev')) return [];
  return readJsonl('korean-dev.jsonl')
    .filter((q) => q.relevant.length === 0)
    .map((q) => ({ dir: path.join(root, 'test/fixtures/real', q.dir), prompt: q.query }));
}

/** The labelled prompts with no relevant memory in REAL_DIR, of `splits`. */
export function negativePrompts(splits = ['dev', 'test']) {
  return readJsonl('negatives.jsonl').filter((n) => splits.includes(n.split));
}

const STOP = new Set(
  'a an and are as at be but by can do for from has have how i if in into is it its me my no not of on or our should so that the their there these they this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);
const processTerm = (term) => (STOP.has(term.toLowerCase()) ? null : stemmer(term.toLowerCase()));

/**
 * The peer: MiniSearch 7 BM25 with Porter stemming, stop words and memdir's former field boosts, over
 * the same fields of the same files (memdir's documents hold terms, so the text is read here).
 */
export async function miniSearchRanker() {
  const { memoryParts } = await import(path.join(root, 'dist/internal.js'));
  return (docs, dir) => miniSearchOver(docs.map((d) => ({ path: d.path, ...memoryParts(d.path, fs.readFileSync(path.join(dir, d.path), 'utf8')) })));
}

function miniSearchOver(docs) {
  const mini = new MiniSearch({
    fields: ['name', 'description', 'body'],
    storeFields: ['path'],
    idField: 'path',
    processTerm,
    searchOptions: { boost: { name: 2.5, description: 3 }, processTerm },
  });
  mini.addAll(docs.map(({ path, name, description, body }) => ({ path, name, description, body })));
  return (query) =>
    mini
      .search(query)
      .slice(0, 5)
      .map((r) => r.id);
}

/** recall@5 (found relevant / min(relevant, 5)) and MRR over `queries`, given each query's ranked paths. */
export function score(rankings, queries) {
  let hits = 0;
  let rr = 0;
  queries.forEach((q, i) => {
    const ranked = rankings[i].slice(0, 5);
    const relevant = new Set(q.relevant);
    hits += ranked.filter((p) => relevant.has(p)).length / Math.min(relevant.size, 5);
    const first = ranked.findIndex((p) => relevant.has(p));
    rr += first === -1 ? 0 : 1 / (first + 1);
  });
  return { n: queries.length, recallAt5: hits / queries.length, mrr: rr / queries.length };
}

/**
 * Run `rankers` ({ name: (docs, dir) => (query) => paths }) over `sets`; returns
 * { [setName/split]: { [ranker]: { rankings, queries } } } with "all-en/<split>" (REALTALK + real) added.
 */
export function runRankers(sets, rankers, loadDocs) {
  const out = {};
  const add = (key, name, rankings, queries) => {
    out[key] ??= {};
    out[key][name] ??= { rankings: [], queries: [] };
    out[key][name].rankings.push(...rankings);
    out[key][name].queries.push(...queries);
  };
  for (const set of sets) {
    const docs = loadDocs(set.dir);
    for (const [name, make] of Object.entries(rankers)) {
      const rank = make(docs, set.dir);
      const rankings = set.queries.map((q) => rank(q.query));
      add(`${set.set}/${set.split}`, name, rankings, set.queries);
      if (set.set !== 'memsim' && set.set !== 'korean') add(`english/${set.split}`, name, rankings, set.queries);
    }
  }
  return out;
}
