import fs from 'node:fs'; import path from 'node:path';
import { scanner } from './secrets.bench.js';
const a = await scanner(process.env.CMP ?? 'HEAD'); const b = await scanner();
const roots = ['test/fixtures', '../shared/fixtures'];
let n=0;
function* walk(d){ for (const e of fs.readdirSync(d,{withFileTypes:true})) { const p=path.join(d,e.name); if(e.isDirectory()) { if(!/secrets-(heldout|dev|gitleaks|betterleaks)|node_modules|\.git$/.test(p)) yield* walk(p);} else if(/\.(md|jsonl|txt|json)$/.test(e.name) && fs.statSync(p).size<3e6) yield p; } }
for (const r of roots) for (const f of walk(r)) { const t=fs.readFileSync(f,'utf8'); n++;
  const ka=a.findSecrets(t,{warnings:true}).map(h=>h.rule.id+':'+h.severity).sort().join(','); const kb=b.findSecrets(t,{warnings:true}).map(h=>h.rule.id+':'+h.severity).sort().join(',');
  if(ka!==kb) console.log(f, '\n   before:', ka.slice(0,200), '\n   after: ', kb.slice(0,200)); }
console.log('files', n);
