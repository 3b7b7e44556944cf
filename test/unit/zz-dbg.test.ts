import { test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { planRefactor } from '../../src/refactor/plan.js';
import { standingRules } from '../../src/core/standing-rules.js';
test('dbg', () => {
  const dir = process.env.DIR!;
  const files = new Map(fs.readdirSync(dir).filter(f => f.endsWith('.md')).map(f => [f, { text: fs.readFileSync(path.join(dir, f), 'utf8'), anchor: new Date(2026,1,26), anchorSource: 'x' }]));
  const plan = planRefactor(files);
  const idx = plan.changes.get('MEMORY.md')!;
  for (const l of idx.split('\n')) if (l.length > 175) console.log(l.length, l, JSON.stringify(standingRules(l).map(r=>r.clause)));
});
