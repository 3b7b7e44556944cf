import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadDocs } from '../../src/recall/load.js';
import { semanticScorer } from '../../src/recall/semantic.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const topic = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`;

test('semanticScorer: a run embeds at most maxNewLines new lines; a memory with a line left out is not scored until a later run', async () => {
  const dir = tempDir();
  writeTree(dir, {
    'a.md': topic('Alps', 'Skiing every winter', 'Chamonix in January.'),
    'b.md': topic('Beach', 'Surfing in summer', 'Biarritz in August.'),
  });
  const docs = loadDocs(dir);
  const first = await semanticScorer(dir, docs, { maxNewLines: 4 });
  expect([...(await first!('winter sports')).keys()]).toEqual(['a.md']);
  const stored = () => Object.keys(JSON.parse(fs.readFileSync(path.join(dir, '.memdir/recall-vectors.json'), 'utf8')).lines);
  expect(stored()).toHaveLength(4);
  const second = await semanticScorer(dir, docs, { maxNewLines: 4 });
  const scores = await second!('winter sports');
  expect([...scores.keys()].sort()).toEqual(['a.md', 'b.md']);
  expect(scores.get('a.md')!).toBeGreaterThan(scores.get('b.md')!);
  expect(stored()).toHaveLength(6);
  // Scoring one memory keeps the other's lines (`all`); a line no memory holds any more goes at the next write.
  const before = stored();
  writeTree(dir, { 'a.md': topic('Alps', 'Skiing every winter', 'Zermatt in February.') });
  await semanticScorer(dir, [docs[0]!], { all: docs });
  const after = stored();
  expect([after.length, after.filter((key) => !before.includes(key)).length]).toEqual([6, 1]);
});

test('semanticScorer: a damaged vector in the store (cut short, not a string) is embedded again, never scored as it is', async () => {
  const dir = tempDir();
  writeTree(dir, { 'a.md': topic('Alps', 'Skiing every winter', 'Chamonix in January.') });
  const docs = loadDocs(dir);
  const clean = await (await semanticScorer(dir, docs))!('winter sports');
  const file = path.join(dir, '.memdir/recall-vectors.json');
  const store = JSON.parse(fs.readFileSync(file, 'utf8'));
  const [first, second] = Object.keys(store.lines);
  store.lines[first!] = store.lines[first!].slice(0, 100);
  store.lines[second!] = 42;
  fs.writeFileSync(file, JSON.stringify(store));
  const again = await (await semanticScorer(dir, docs))!('winter sports');
  expect(again.get('a.md')).toBeCloseTo(clean.get('a.md')!, 6);
  const repaired = JSON.parse(fs.readFileSync(file, 'utf8')).lines;
  expect([repaired[first!].length, repaired[second!].length]).toEqual([688, 688]);
});
