// prints dev/dev2 misses with text
import fs from 'node:fs';
const { findDurableStatement } = await import('/work/wt/extract/dist/internal.js');
const rows = ['labelled.jsonl','dev2.jsonl'].flatMap(f=>fs.readFileSync('/work/wt/extract/bench/extract/'+f,'utf8').split('\n').filter(Boolean).map(JSON.parse)).filter(r=>r.split!=='test');
for (const r of rows) { const f = findDurableStatement(r.text); const tag = f && r.durable ? (f.type===r.type?null:`TYPE ${f.type}≠${r.type}`) : f ? 'FP' : r.durable ? 'MISS' : null; if (tag) console.log(tag.padEnd(18), r.id.slice(0,22).padEnd(22), JSON.stringify(r.text.slice(0,160)), f? '→ '+JSON.stringify(f.statement.slice(0,60)):''); }
