import { describe, expect, test } from 'vitest';
import { documentFor, type RecallDoc } from '../../src/recall/document.js';
import { DEFAULT_TUNING, RecallIndex } from '../../src/recall/rank.js';
import { capMemory, renderMemory } from '../../src/core/render-memory.js';
import { tokenize } from '../../src/core/tokenize.js';
import { isTaskTerm, TASK_TERMS, TASK_WORDS } from '../../src/recall/task-words.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const DAY = 86_400_000;
/** The name, description and body of each document made here, as `recall` gives them to `textOf`. */
const fileText = new WeakMap<RecallDoc, string>();
const doc = (path: string, name: string, description: string, body = '', type = 'project', ageDays = 10): RecallDoc => {
  const made = documentFor(path, `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(description)}\ntype: ${type}\n---\n${body}`, NOW - ageDays * DAY);
  fileText.set(made, `${name} ${description} ${body}`);
  return made;
};

describe('tokenize', () => {
  test('English: lower-case, stop words out, stemmed', () => {
    expect(tokenize('The deployments are Failing on the CI pipelines')).toEqual(['deploy', 'fail', 'ci', 'pipelin']);
  });
  test('Chinese: segmented into words', () => {
    expect(tokenize('合并冻结期间不要合并移动端分支')).toEqual(['合并', '冻结', '期间', '不要', '合并', '移动', '端', '分支']);
  });
  test('mixed text keeps both', () => {
    expect(tokenize('mobile 分支 merge-freeze')).toEqual(['mobil', '分支', 'merg', 'freez']);
  });
});

describe('ranking', () => {
  const docs = [
    doc('project_freeze.md', 'Merge freeze', 'No merges to main during the mobile release freeze until 2026-03-05', 'Hold merges to main.'),
    doc('feedback_terse.md', 'Terse replies', 'User wants no recap at the end of responses', 'No summary.', 'feedback'),
    doc('reference_grafana.md', 'Grafana', 'API latency dashboard on-call watches during deploys', 'Board api-latency.', 'reference'),
    doc('project_ci.md', 'CI/CD release process', 'Releases go out through the GitHub Actions pipeline every Tuesday', 'Tag, then the pipeline ships.'),
    doc('reference_psql.md', 'psql usage', 'How to use psql against the staging database', 'psql -h staging …', 'reference'),
    doc('feedback_psql.md', 'psql gotcha', 'Never run psql against production without a transaction', 'Wrap in BEGIN.', 'feedback'),
  ];
  const index = new RecallIndex(docs);
  const paths = (query: string, options = {}) => index.search(query, { nowMs: NOW, ...options }).map((r) => r.doc.path);

  test('the description carries the most weight', () => {
    expect(paths('can I merge the mobile branch this week?')[0]).toBe('project_freeze.md');
  });
  test('the synonym table is off by default (it did not help on the dev split) and can be switched on', () => {
    expect(paths('how do deployments work here?')).not.toContain('project_ci.md');
    expect(paths('how do deployments work here?', { tuning: { synonyms: true } })).toContain('project_ci.md');
  });
  test('query words next to each other in a memory rank it above one that has them apart', () => {
    const pair = new RecallIndex([
      doc('apart.md', 'Notes', 'Flush the queue before the big release, then check the cache'),
      doc('near.md', 'Notes', 'Check the queue before the big release, then flush the cache'),
    ]);
    const scores = (proximity: number) => pair.search('flush cache', { nowMs: NOW, tuning: { proximity } }).map((r) => [r.doc.path, r.score]);
    expect(scores(0)[0]![1]).toBeCloseTo(scores(0)[1]![1] as number, 5);
    expect(scores(0.2).map(([p]) => p)).toEqual(['near.md', 'apart.md']);
  });
  test('a pair is near within three terms, in either order, anywhere in the field, and only as whole terms', () => {
    const bonus = (body: string) => {
      const index = new RecallIndex([doc('x.md', 'Notes', '', body)]);
      const score = (proximity: number) => index.search('flush cache', { nowMs: NOW, tuning: { proximity } })[0]!.score;
      return score(0.2) / score(0);
    };
    expect(documentFor('x.md', 'flush cachet cache', NOW).terms.body).toBe('flush cachet cach');
    expect(bonus('flush alpha beta cache')).toBeCloseTo(1.2, 9);
    expect(bonus('flush alpha beta gamma cache')).toBeCloseTo(1, 9);
    expect(bonus('cache alpha beta flush')).toBeCloseTo(1.2, 9);
    expect(bonus('flush alpha beta gamma delta cache, later cache alpha flush')).toBeCloseTo(1.2, 9);
    expect(bonus('flush cachet alpha beta gamma cache')).toBeCloseTo(1, 9);
    expect(bonus('flushometer alpha cache beta gamma delta flush')).toBeCloseTo(1, 9);
  });
  test('a term is counted in every field of every memory in one pass per field: BM25F by hand', () => {
    // "vet" sits in b's body, a's name and body, and c's description: found field by field, out of document order.
    const docs = [
      doc('a.md', 'Vet visit', 'Puppy checkup', 'vet said fine, vet again soon'),
      doc('b.md', 'Food', 'Bought food', 'after the vet'),
      doc('c.md', 'Bill', 'Paid the vet'),
      doc('d.md', 'Tax', 'Filed the tax return'),
    ];
    const { k1, b, weights } = DEFAULT_TUNING;
    const average = (field: 'name' | 'description' | 'body') => docs.reduce((sum, d) => sum + d.lengths[field], 0) / docs.length;
    const part = (d: RecallDoc, field: 'name' | 'description' | 'body', tf: number) => (weights[field] * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * d.lengths[field]) / average(field)));
    const idf = Math.log(1 + (4 - 3 + 0.5) / (3 + 0.5));
    const expected = { 'a.md': idf * (part(docs[0]!, 'name', 1) + part(docs[0]!, 'body', 2)), 'b.md': idf * part(docs[1]!, 'body', 1), 'c.md': idf * part(docs[2]!, 'description', 1) };
    const scores = new RecallIndex(docs).search('vet', { nowMs: NOW, tuning: { proximity: 0 } });
    expect(scores.map((r) => r.doc.path).sort()).toEqual(['a.md', 'b.md', 'c.md']);
    // Recency adds at most 5% to break near-ties (all four memories are 10 days old).
    const recency = 1 + 0.05 * Math.exp(-10 / 90);
    for (const r of scores) expect(r.score).toBeCloseTo(expected[r.doc.path as keyof typeof expected] * recency, 9);
  });
  test('each field knows its length (terms), stored with the document', () => {
    const memory = doc('x.md', 'Merge freeze', 'No merges during the freeze', 'Hold merges until Friday.');
    expect(memory.terms).toEqual({ name: 'merg freez', description: 'merg freez', body: 'hold merg fridai' });
    expect(memory.lengths).toEqual({ name: 2, description: 2, body: 3 });
  });
  test('expansion ideas (off by default): co-occurrence and pseudo-relevance feedback reach a memory without the query word', () => {
    const pets = new RecallIndex([
      doc('a.md', 'Puppy checkup', 'The puppy saw the vet'),
      doc('b.md', 'Puppy food', 'Bought food for the puppy after the vet'),
      doc('c.md', 'Park run', 'Ran five km in the park'),
      doc('d.md', 'Vet bill', 'Paid the vet on Monday'),
      doc('e.md', 'Tax return', 'Filed the tax return'),
      doc('f.md', 'Garden', 'Planted tomatoes'),
    ]);
    expect(pets.search('puppy', { nowMs: NOW }).map((r) => r.doc.path)).toEqual(['a.md', 'b.md'].sort());
    expect(pets.search('puppy', { nowMs: NOW, tuning: { cooccurrence: { terms: 3, weight: 0.3 } } }).map((r) => r.doc.path)).toContain('d.md');
    expect(pets.search('puppy', { nowMs: NOW, tuning: { feedback: { docs: 2, terms: 5, weight: 0.3 } } }).map((r) => r.doc.path)).toContain('d.md');
  });
  test('dates match whatever their format when dateTerms is on', () => {
    const days = new RecallIndex([doc('a.md', 'Session (2024-01-07)', 'Went hiking'), doc('b.md', 'Session (2024-01-09)', 'Went hiking')]);
    const score = (dateTerms: boolean) => days.search('what happened on 7 Jan 2024?', { nowMs: NOW, tuning: { dateTerms, dateNear: null } }).map((r) => [r.doc.path, r.score]);
    expect(score(true)[0]![0]).toBe('a.md');
    expect(score(true)[0]![1]).toBeGreaterThan(score(true)[1]![1] as number);
    expect(score(false)[0]![1]).toBeCloseTo(score(false)[1]![1] as number, 5);
  });
  test('a query naming a day favours the memories dated that day or shortly after (they report it), not before', () => {
    const diary = new RecallIndex([
      doc('before.md', 'Chat (2024-01-04)', 'Went hiking with Sam'),
      doc('after.md', 'Chat (2024-01-06)', 'Went hiking with Sam'),
      doc('late.md', 'Chat (2024-02-20)', 'Went hiking with Sam'),
    ]);
    const ranked = (dateNear: { days: number; weight: number } | null) => diary.search('who went hiking on 5 Jan 2024?', { nowMs: NOW, tuning: { dateNear } });
    expect(ranked(DEFAULT_TUNING.dateNear)[0]!.doc.path).toBe('after.md');
    expect(ranked(DEFAULT_TUNING.dateNear)[1]!.score).toBeCloseTo(ranked(DEFAULT_TUNING.dateNear)[2]!.score, 5);
    expect(new Set(ranked(null).map((r) => r.score.toFixed(5))).size).toBe(1);
  });
  test('nothing relevant: nothing returned', () => {
    expect(paths('favourite colour of the office cat')).toEqual([]);
  });
  test('--recent-tools demotes how-to memories about a tool in use, not warnings about it', () => {
    const without = index.search('psql', { nowMs: NOW });
    const withTool = index.search('psql', { nowMs: NOW, recentTools: ['Bash(psql)', 'psql'], textOf: (d) => fileText.get(d) });
    const score = (rs: typeof without, p: string) => rs.find((r) => r.doc.path === p)?.score ?? 0;
    expect(without[0]!.doc.path).toBe('reference_psql.md');
    expect(score(withTool, 'reference_psql.md')).toBeLessThan(score(without, 'reference_psql.md') * 0.5);
    expect(withTool[0]!.doc.path).toBe('feedback_psql.md');
  });
  test('abstention: a prompt the best memory barely covers gets nothing, only when asked', () => {
    for (const prompt of ['can you review the release notes draft before lunch', 'thanks, now run the linter over the parser module again']) {
      expect(index.rank(prompt, { nowMs: NOW }).ranked.length).toBeGreaterThan(0);
      expect(index.rank(prompt, { nowMs: NOW, abstain: true })).toMatchObject({ ranked: [], confident: false });
    }
    const hit = index.rank('is there a merge freeze on the mobile release?', { nowMs: NOW, abstain: true });
    expect(hit.confident).toBe(true);
    expect(hit.ranked[0]!.doc.path).toBe('project_freeze.md');
    expect(hit.coverage.all).toBeGreaterThan(0.4);
  });
  test('abstention: words that only instruct the agent are not topics a memory could cover', () => {
    const work = new RecallIndex([...docs, doc('feedback_tests.md', 'Run the tests', 'Run the failing tests again and fix each failure before review', 'Check the build first.', 'feedback')]);
    const prompt = 'thanks, please run the failing tests again and fix the build';
    const rank = (taskWords: boolean) => work.rank(prompt, { nowMs: NOW, abstain: true, tuning: { abstain: { ...DEFAULT_TUNING.abstain, taskWords } } });
    expect(rank(false).ranked[0]!.doc.path).toBe('feedback_tests.md');
    expect(rank(true)).toMatchObject({ ranked: [], confident: false, coverage: { words: 0 } });
    expect(work.rank('please check the merge freeze on the mobile release again', { nowMs: NOW, abstain: true }).ranked[0]!.doc.path).toBe('project_freeze.md');
  });
  test('the task words written out as terms are exactly what the tokenizer makes of them', () => {
    expect(TASK_TERMS).toEqual(new Set(tokenize(TASK_WORDS)));
  });
  test('a Korean request ending asks the agent to act and names no topic', () => {
    for (const term of tokenize('버전 올려줘, 설명해 주세요, 바꿔줄래')) expect(isTaskTerm(term)).toBe(!['버전', '설명해'].includes(term));
    expect(isTaskTerm('버전')).toBe(false);
  });
  test('abstention: a word mentioned once in a long body covers less of the prompt than one in the description', () => {
    const filler = Array.from({ length: 60 }, (_, i) => `note${i}`).join(' ');
    const hub = new RecallIndex([doc('hub.md', 'Weekly log', 'Everything from the week', `${filler} staging ${filler} latency`), doc('other.md', 'Lunch', 'Team lunch on Fridays')]);
    const coverage = (heldAt: number) => hub.rank('staging latency', { nowMs: NOW, tuning: { abstain: { ...DEFAULT_TUNING.abstain, heldAt } } }).coverage;
    expect(coverage(0)).toMatchObject({ all: 1, words: 2 });
    expect(coverage(2).all).toBeLessThan(0.5);
    expect(coverage(2).words).toBe(2);
    const described = new RecallIndex([doc('a.md', 'Staging', 'Staging latency budget'), doc('b.md', 'Lunch', 'Team lunch on Fridays')]);
    expect(described.rank('staging latency', { nowMs: NOW }).coverage.all).toBe(1);
  });
  test('recency breaks ties', () => {
    const twins = new RecallIndex([
      doc('old.md', 'Deploy notes', 'Deploy notes for the api service', '', 'project', 200),
      doc('new.md', 'Deploy notes', 'Deploy notes for the api service', '', 'project', 1),
    ]);
    expect(twins.search('deploy notes api', { nowMs: NOW }).map((r) => r.doc.path)).toEqual(['new.md', 'old.md']);
  });
  test('term statistics are counted on demand: the queries before, and the ideas they used, change no later ranking', () => {
    const queries = ['can I merge the mobile branch this week?', 'psql against staging', 'release pipeline on Tuesday', 'grafana latency during deploys'];
    const ideas = [{}, { feedback: { docs: 2, terms: 3, weight: 0.5 } }, { cooccurrence: { terms: 3, weight: 0.5 } }, { synonyms: true }];
    const rank = (used: RecallIndex, query: string, tuning: object) => JSON.stringify(used.rank(query, { nowMs: NOW, tuning }), (key, value) => (key === 'doc' ? value.path : value));
    const fresh = new Map(queries.flatMap((q) => ideas.map((t) => [`${q} ${JSON.stringify(t)}`, rank(new RecallIndex(docs), q, t)] as const)));
    const shared = new RecallIndex(docs);
    for (const q of [...queries].reverse()) for (const t of [...ideas].reverse()) expect(rank(shared, q, t)).toBe(fresh.get(`${q} ${JSON.stringify(t)}`));
  });
  test('at most `limit` results', () => {
    const many = new RecallIndex(Array.from({ length: 20 }, (_, i) => doc(`m${i}.md`, `Deploy ${i}`, 'deploy notes')));
    expect(many.search('deploy', { nowMs: NOW, limit: 5 })).toHaveLength(5);
  });
});

describe('rendering', () => {
  test('headers by age', () => {
    expect(renderMemory('/m/a.md', 'Body', NOW - 2 * 3_600_000, NOW)).toBe('Memory (saved today): /m/a.md:\nBody');
    expect(renderMemory('/m/a.md', 'Body', NOW - 30 * 3_600_000, NOW)).toBe('Memory (saved yesterday): /m/a.md:\nBody');
    expect(renderMemory('/m/a.md', 'Body', NOW - 47 * DAY, NOW)).toMatch(/^This memory is 47 days old\. .* Verify against current code before asserting as fact\.\nMemory: \/m\/a\.md:\nBody$/);
  });
  test('capped at 200 lines and at 4 KB, with a note', () => {
    const long = capMemory(Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n'), '/m/a.md');
    expect(long.truncated).toBe(true);
    expect(long.text.split('\n')).toHaveLength(201);
    expect(long.text).toMatch(/\[… truncated at 200 lines \/ 4 KB; read \/m\/a\.md for the rest\]$/);
    const wide = capMemory('界'.repeat(3000), '/m/a.md');
    expect(Buffer.byteLength(wide.text.split('\n')[0]!)).toBeLessThanOrEqual(4096);
    expect(wide.text).not.toContain('\uFFFD');
  });
});
