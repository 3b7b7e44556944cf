// node scripts/lint-findings.js [--report FILE]: every lint finding on the real memory directories
// (test/fixtures/real, or MEMDIR_REAL_CORPUS) and the shared fixtures, with the line it is about,
// as JSON on stdout. With --report judged.json: per rule, fired / agreed / wrong / noise / unjudged.
// Each directory is copied to a temp folder outside git with fixed file times, so the findings do
// not depend on the checkout (the build must be current).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_CONFIG, lint } from '../dist/index.js';
import { redactSecrets } from '../dist/internal.js';

const repo = path.join(path.dirname(new URL(import.meta.url).pathname), '..');
const realCorpus = process.env.MEMDIR_REAL_CORPUS ?? path.join(repo, 'test/fixtures/real');
const sharedCorpus = path.join(repo, 'test/fixtures/shared/memory');
const FIXED_TIME = new Date('2026-03-01T12:00:00Z');

function corpusDirs() {
  const dirs = [];
  if (fs.existsSync(realCorpus))
    for (const entry of fs.readdirSync(realCorpus, { withFileTypes: true })) if (entry.isDirectory()) dirs.push({ name: entry.name, dir: path.join(realCorpus, entry.name) });
  for (const name of fs.readdirSync(sharedCorpus)) dirs.push({ name: `shared/${name}`, dir: path.join(sharedCorpus, name, '.claude/memory') });
  return dirs.sort((a, b) => a.name.localeCompare(b.name));
}

function copyWithFixedTimes(source, into) {
  fs.cpSync(source, into, { recursive: true, verbatimSymlinks: true });
  for (const entry of fs.readdirSync(into, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) fs.utimesSync(path.join(entry.parentPath, entry.name), FIXED_TIME, FIXED_TIME);
  }
}

export async function corpusFindings() {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-lint-corpus-'));
  const out = [];
  try {
    for (const { name, dir } of corpusDirs()) {
      const copy = path.join(temp, name.replace('/', '+'));
      copyWithFixedTimes(dir, copy);
      for (const result of await lint({ dirs: [copy], config: DEFAULT_CONFIG })) {
        const sub = path.relative(copy, result.dir);
        for (const f of result.findings) {
          const file = sub ? `${sub}/${f.file}` : f.file;
          let text = '';
          try {
            text = fs.readFileSync(path.join(result.dir, f.file), 'utf8').split(/\r?\n/)[f.line - 1] ?? '';
          } catch {}
          out.push({ key: `${name}/${file}:${f.line}:${f.column} ${f.ruleId}`, dir: name, file, line: f.line, ruleId: f.ruleId, message: f.message, context: redactSecrets(text).slice(0, 300) });
        }
      }
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
  return out;
}

function report(findings, judged) {
  const rows = new Map();
  for (const f of findings) {
    const row = rows.get(f.ruleId) ?? { fired: 0, agreed: 0, wrong: 0, noise: 0, unjudged: 0 };
    row.fired++;
    row[judged[f.key]?.verdict ?? 'unjudged']++;
    rows.set(f.ruleId, row);
  }
  const total = { fired: 0, agreed: 0, wrong: 0, noise: 0, unjudged: 0 };
  const lines = ['| rule | fired | agreed | wrong | noise | unjudged |', '|---|---|---|---|---|---|'];
  for (const [rule, row] of [...rows].sort()) {
    lines.push(`| ${rule} | ${row.fired} | ${row.agreed} | ${row.wrong} | ${row.noise} | ${row.unjudged} |`);
    for (const k of Object.keys(total)) total[k] += row[k];
  }
  const pct = (n) => `${((100 * n) / Math.max(1, total.fired)).toFixed(1)}%`;
  lines.push(`| all | ${total.fired} | ${total.agreed} | ${total.wrong} (${pct(total.wrong)}) | ${total.noise} (${pct(total.noise)}) | ${total.unjudged} |`);
  return lines.join('\n');
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const findings = await corpusFindings();
  const at = process.argv.indexOf('--report');
  if (at === -1) process.stdout.write(`${JSON.stringify(findings, null, 1)}\n`);
  else console.log(report(findings, JSON.parse(fs.readFileSync(process.argv[at + 1], 'utf8'))));
}
