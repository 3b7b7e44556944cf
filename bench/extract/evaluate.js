// Precision and recall of the local extract engine on the frozen labelled set
// (bench/extract/labelled.jsonl), for the dev split (tuned on) and the test split (held out)
// separately. Run after `npm run build`: node bench/extract/evaluate.js [--misses]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function evaluateLocal(findDurableStatement, rows) {
  const splits = {};
  for (const row of rows) {
    const s = (splits[row.split] ??= { messages: 0, durable: 0, found: 0, truePositives: 0, typeRight: 0, wrong: [] });
    const found = findDurableStatement(row.text);
    s.messages++;
    if (row.durable) s.durable++;
    if (found) s.found++;
    if (found && row.durable) {
      s.truePositives++;
      if (found.type === row.type) s.typeRight++;
      else s.wrong.push(`type ${found.type} ≠ ${row.type}: ${row.id}`);
    } else if (found || row.durable) s.wrong.push(`${found ? 'false positive' : 'missed'}: ${row.id}`);
  }
  const result = {};
  for (const [split, s] of Object.entries(splits)) {
    result[split] = {
      messages: s.messages,
      durable: s.durable,
      extracted: s.found,
      precision: s.found ? s.truePositives / s.found : 1,
      recall: s.durable ? s.truePositives / s.durable : 1,
      typeAccuracy: s.truePositives ? s.typeRight / s.truePositives : 1,
      wrong: s.wrong,
    };
  }
  return result;
}

async function main() {
  const { findDurableStatement } = await import(pathToFileURL(path.join(root, 'dist/internal.js')).href);
  const rows = fs
    .readFileSync(path.join(root, 'bench/extract/labelled.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const pct = (x) => x.toFixed(3);
  // All messages, then the real ones alone: the hand-written ones (source "written") were composed
  // by the team that wrote the rules, so the real-only line is the fairer figure.
  for (const [label, subset] of [
    ['all', rows],
    ['real only', rows.filter((row) => row.source !== 'written')],
  ]) {
    const result = evaluateLocal(findDurableStatement, subset);
    for (const split of ['dev', 'test']) {
      const r = result[split];
      console.log(
        `${label.padEnd(9)} ${split.padEnd(4)} ${r.messages} messages, ${r.durable} durable, ${r.extracted} extracted: precision ${pct(r.precision)}, recall ${pct(r.recall)}, type accuracy ${pct(r.typeAccuracy)}`,
      );
      // Misses are listed by id only for the dev split: the test split stays unseen while tuning.
      if (label === 'all' && process.argv.includes('--misses') && split === 'dev') for (const line of r.wrong) console.log(`  ${line}`);
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
