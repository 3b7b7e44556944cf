// What `memdir refactor` and `memdir dream --force` do to what the agent sees, on every vendored real
// memory directory (test/fixtures/real): the words of MEMORY.md the agent loads, the standing rules
// in them, and the files each run touches, as each command's own --json `agentView` reports them —
// dry run and applied run (on temp copies), which must agree. Writes bench/results/agent-view-<date>.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { benchEnv, report, root } from './lib.js';

const bin = path.join(root, 'bin/memdir.cjs');
const corpus = path.join(root, 'test/fixtures/real');

/** One command's --json answer, or the first line of what it said when it did not answer. */
function run(args, cwd, env) {
  const result = spawnSync(process.execPath, [bin, ...args, '--json'], { cwd, env, encoding: 'utf8' });
  try {
    return { code: result.status, json: JSON.parse(result.stdout) };
  } catch {
    return { code: result.status, error: (result.stderr.trim().split('\n')[0] ?? '').slice(0, 160) };
  }
}

/** A command's dry run and applied run on fresh copies of `source`; the applied run's view, checked against the dry run's. */
function measureCommand(source, args) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-agent-view-'));
  const home = path.join(base, 'home');
  const dir = path.join(base, 'memory');
  fs.mkdirSync(home);
  fs.cpSync(source, dir, { recursive: true });
  // Outside any git repository, with an empty home: nothing but the directory is read.
  const env = benchEnv({ HOME: home });
  try {
    const dry = run([...args, '--dir', dir, '--dry-run'], base, env);
    const applied = run([...args, '--dir', dir], base, env);
    const view = applied.json?.agentView ?? dry.json?.agentView;
    const agrees = JSON.stringify(applied.json?.agentView) === JSON.stringify(dry.json?.agentView);
    return { view, agrees, code: applied.code, error: applied.error ?? dry.error, complete: dry.json?.before?.complete };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

const sum = (values) => values.reduce((a, b) => a + b, 0);
const n = (value) => (value === undefined ? '–' : value.toLocaleString('en-US'));
const arrow = (before, after) => `${n(before)} → ${n(after)}`;
const files = (view) => (view ? `${view.counts.changed} / ${view.counts.created} / ${view.counts.deleted}` : '–');

export default function agentView() {
  const dirs = fs
    .readdirSync(corpus, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const rows = dirs.map((name) => {
    const source = path.join(corpus, name);
    const refactor = measureCommand(source, ['refactor']);
    const dream = measureCommand(source, ['dream', '--force']);
    return { name, refactor, dream, whole: refactor.complete };
  });
  const total = (pick, which, side) => sum(rows.map((r) => r[which].view?.[pick][side] ?? 0));
  const wordsOf = (which, side) => sum(rows.map((r) => r[which].view?.loaded[side].words ?? 0));
  const lostWords = (which) => sum(rows.map((r) => r[which].view?.wordsNoLongerLoaded ?? 0));
  const nowhere = (which) => sum(rows.map((r) => r[which].view?.rules.lost.filter((l) => l.keptIn === null).length ?? 0));
  const count = (which, kind) => sum(rows.map((r) => r[which].view?.counts[kind] ?? 0));
  const worse = (which, filter = () => true) =>
    rows.filter((r) => filter(r) && r[which].view && (r[which].view.wordsNoLongerLoaded > 0 || r[which].view.rules.after < r[which].view.rules.before)).length;
  const whole = (r) => r.whole === true;
  const failures = rows.flatMap((r) =>
    ['refactor', 'dream'].flatMap((which) =>
      r[which].code !== 0 || r[which].error || !r[which].agrees
        ? [`- ${r.name}, ${which}: exit ${r[which].code}${r[which].error ? `, ${r[which].error}` : ''}${r[which].agrees ? '' : ' (applied view differs from the dry run)'}`]
        : [],
    ),
  );

  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    `# What the agent sees after refactor and dream, on the vendored real directories (${date})`,
    '',
    `\`npm run bench -- agent-view\` at ${commit || 'an unknown commit'}, Node ${process.version}: each of the ${rows.length} directories of \`test/fixtures/real/\` copied to a temp folder (outside git, empty HOME), then \`memdir refactor --dry-run --json\` and \`memdir refactor --json\`, and on a second copy \`memdir dream --force --dry-run --json\` and \`memdir dream --force --json\`. Figures are each command's own \`agentView\` (the applied run's; it must equal the dry run's): the words of MEMORY.md the agent loads (the load model's \`loaded\` text), the standing rules in it whose words are all still loaded, and the files written (changed / created / deleted).`,
    '',
    '## Totals',
    '',
    '| | refactor | dream --force |',
    '|---|---|---|',
    `| loaded words, before → after | ${arrow(wordsOf('refactor', 'before'), wordsOf('refactor', 'after'))} | ${arrow(wordsOf('dream', 'before'), wordsOf('dream', 'after'))} |`,
    `| distinct loaded words no longer loaded | ${n(lostWords('refactor'))} | ${n(lostWords('dream'))} |`,
    `| standing rules visible, before → after | ${arrow(total('rules', 'refactor', 'before'), total('rules', 'refactor', 'after'))} | ${arrow(total('rules', 'dream', 'before'), total('rules', 'dream', 'after'))} |`,
    `| … of the rules no longer loaded, those whose words no file holds after the run | ${n(nowhere('refactor'))} | ${n(nowhere('dream'))} |`,
    `| files changed / created / deleted | ${n(count('refactor', 'changed'))} / ${n(count('refactor', 'created'))} / ${n(count('refactor', 'deleted'))} | ${n(count('dream', 'changed'))} / ${n(count('dream', 'created'))} / ${n(count('dream', 'deleted'))} |`,
    `| directories where the agent loses words or rules (of ${rows.length}) | ${worse('refactor')} | ${worse('dream')} |`,
    `| … of the ${rows.filter(whole).length} whose index loads whole | ${worse('refactor', whole)} | ${worse('dream', whole)} |`,
    '',
    '## Per directory',
    '',
    'Loads whole: whether Claude Code loads all of MEMORY.md before the run. Files: changed / created / deleted.',
    '',
    '| directory | loads whole | words: refactor | words: dream | rules: refactor | rules: dream | files: refactor | files: dream |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const { refactor: a, dream: b } = r;
      const words = (v) => (v ? arrow(v.loaded.before.words, v.loaded.after.words) : '–');
      const rules = (v) => (v ? arrow(v.rules.before, v.rules.after) : '–');
      return `| ${r.name} | ${r.whole === undefined ? '–' : r.whole ? 'yes' : 'no'} | ${words(a.view)} | ${words(b.view)} | ${rules(a.view)} | ${rules(b.view)} | ${files(a.view)} | ${files(b.view)} |`;
    }),
    '',
    ...(failures.length ? ['## Runs that did not apply', '', ...failures, ''] : []),
  ];
  const out = path.join(root, 'bench/results', `agent-view-${date}.md`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${lines.join('\n')}`);
  report(`agent view: refactor and dream --force on ${rows.length} real directories (${path.relative(root, out)})`, [
    ['refactor: loaded words', arrow(wordsOf('refactor', 'before'), wordsOf('refactor', 'after'))],
    ['refactor: standing rules visible', arrow(total('rules', 'refactor', 'before'), total('rules', 'refactor', 'after'))],
    ['refactor: files changed / created / deleted', files({ counts: { changed: count('refactor', 'changed'), created: count('refactor', 'created'), deleted: count('refactor', 'deleted') } })],
    ['dream: loaded words', arrow(wordsOf('dream', 'before'), wordsOf('dream', 'after'))],
    ['dream: standing rules visible', arrow(total('rules', 'dream', 'before'), total('rules', 'dream', 'after'))],
    ['dream: files changed / created / deleted', files({ counts: { changed: count('dream', 'changed'), created: count('dream', 'created'), deleted: count('dream', 'deleted') } })],
    ['runs that did not apply', String(failures.length)],
  ]);
  return { rows: rows.length, failures: failures.length };
}
