// The start-up tricks, each measured with and without in one interleaved run:
// - the V8 code cache of the bundles (`MEMDIR_CODE_CACHE=0` turns it off),
// - the `builtins-once` esbuild plugin and the `ascii-bundles` step of tsup.config.ts (each left
//   out of a variant build of the CLI bundles, made in a temporary copy of the repository),
// - the hand-ported Porter stemmer against the `stemmer` package it reproduces: a fresh process
//   loads one of them and stems a five-word prompt, timed inside the process.
// Subjects: `recall --hook` and `context --hook` on 200 generated memories and `memdir where`
// (fast path), as ratios to `node -e ""` in the same environment.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchEnv, compareRotated, environmentLabel, generateMemoryDir, hookEnv, report, root, timeBareNode, timeCommand } from './lib.js';

const tsup = path.join(root, 'node_modules/tsup/dist/cli-default.js');

/** What each variant build leaves out of the CLI bundles' configuration. */
const VARIANTS = {
  all: '',
  'no-builtins-once': 'config.esbuildPlugins = [];',
  'no-ascii-bundles': 'delete config.onSuccess;',
};

/** A copy of the repository whose CLI bundles are built with `change` applied to tsup.config.ts's first entry. */
function buildVariant(work, name, change) {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  for (const entry of ['src', 'bin', 'templates', 'package.json', 'tsconfig.json', 'tsup.config.ts']) fs.cpSync(path.join(root, entry), path.join(dir, entry), { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'tsup.variant.config.ts'), `import configs from './tsup.config.ts';\nconst config = { ...configs[0] };\n${change}\nexport default [config];\n`);
  const built = spawnSync(process.execPath, [tsup, '--config', 'tsup.variant.config.ts', '--silent'], { cwd: dir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build of ${name}: ${built.stderr}`);
  // The variant must differ where it says: a bundle left as esbuild wrote it holds non-ASCII characters.
  const recallBundle = fs.readFileSync(path.join(dir, 'dist/fast/recall.cjs'), 'latin1');
  if (/[^\x00-\x7f]/.test(recallBundle) !== (name === 'no-ascii-bundles')) throw new Error(`${name}: the recall bundle is not what the variant builds`);
  if (recallBundle.includes('__toESM(require("node:fs")') !== (name === 'no-builtins-once')) throw new Error(`${name}: builtins are not bundled as the variant says`);
  return path.join(dir, 'bin/memdir.cjs');
}

/** A script printing how long `body` took, in ms: a difference of a fraction of a millisecond is lost in a whole process's noise. */
const timed = (body) => `const start = process.hrtime.bigint();\n${body}\nprocess.stdout.write(String(Number(process.hrtime.bigint() - start) / 1e6));\n`;

/** Scripts that load one stemmer and stem a five-word prompt: the cost a prompt hook pays on its first words. */
function stemmerScripts(work) {
  // Both as ES modules, as the package ships: only the stemmer differs.
  const porter = path.join(work, 'porter.mjs');
  const built = spawnSync(path.join(root, 'node_modules/.bin/esbuild'), [path.join(root, 'src/core/porter.ts'), '--bundle', '--format=esm', '--platform=node', `--outfile=${porter}`], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`esbuild porter: ${built.stderr}`);
  const words = JSON.stringify(['deploying', 'releases', 'during', 'freezes', 'merging']);
  const hand = path.join(work, 'hand.mjs');
  fs.writeFileSync(hand, timed(`const { porterStem } = await import(${JSON.stringify(porter)});\nfor (const w of ${words}) porterStem(w);`));
  const pkg = path.join(work, 'package.mjs');
  fs.writeFileSync(pkg, timed(`const { stemmer } = await import(${JSON.stringify(path.join(root, 'node_modules/stemmer/index.js'))});\nfor (const w of ${words}) stemmer(w);`));
  return { hand, pkg };
}

export default function startupTricks({ rounds = 30 } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-tricks-'));
  const memories = generateMemoryDir(200);
  try {
    const bins = Object.fromEntries(Object.entries(VARIANTS).map(([name, change]) => [name, buildVariant(work, name, change)]));
    const env = benchEnv();
    let session = 0;
    const ask =
      (bin, extra = {}) =>
      () =>
        timeCommand(process.execPath, [bin, 'recall', '--hook', '--dir', memories], {
          stdio: ['pipe', 'pipe', 'pipe'],
          env: { ...hookEnv(memories), ...extra },
          input: JSON.stringify({ session_id: `bench-${session++}`, hook_event_name: 'UserPromptSubmit', cwd: memories, prompt: 'can I merge the mobile branch during the release freeze?' }),
        });
    const where =
      (bin, extra = {}) =>
      () =>
        timeCommand(process.execPath, [bin, 'where', '--dir', memories], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...env, ...extra } });
    const sessionStart =
      (bin, extra = {}) =>
      () =>
        timeCommand(process.execPath, [bin, 'context', '--hook', '--dir', memories], {
          stdio: ['pipe', 'pipe', 'pipe'],
          env: { ...hookEnv(memories), ...extra },
          input: JSON.stringify({ session_id: `bench-${session++}`, hook_event_name: 'SessionStart', cwd: memories, source: 'startup' }),
        });
    const noCache = { MEMDIR_CODE_CACHE: '0' };
    const candidates = {
      node: () => timeBareNode(env),
      recall: ask(bins.all),
      recallNoCache: ask(bins.all, noCache),
      recallNoBuiltinsOnce: ask(bins['no-builtins-once']),
      recallNoAscii: ask(bins['no-ascii-bundles']),
      context: sessionStart(bins.all),
      contextNoCache: sessionStart(bins.all, noCache),
      contextNoBuiltinsOnce: sessionStart(bins['no-builtins-once']),
      contextNoAscii: sessionStart(bins['no-ascii-bundles']),
      where: where(bins.all),
      whereNoCache: where(bins.all, noCache),
      whereNoBuiltinsOnce: where(bins['no-builtins-once']),
      whereNoAscii: where(bins['no-ascii-bundles']),
    };
    // Two untimed runs each: the first builds the index and each bundle's code cache.
    for (const run of Object.values(candidates)) {
      run();
      run();
    }
    const { hand, pkg } = stemmerScripts(work);
    const stem = (script) => () => {
      const result = spawnSync(process.execPath, [script], { env, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`${script}: ${result.stderr}`);
      return Number(result.stdout);
    };
    Object.assign(candidates, { stemHand: stem(hand), stemPackage: stem(pkg) });
    const m = compareRotated(candidates, rounds);
    const ratio = (ms) => `${ms.toFixed(1)} ms (${(ms / m.node).toFixed(3)}× node -e "")`;
    report(`start-up tricks, with and without (median of ${rounds}, interleaved, order rotated, ${environmentLabel})`, [
      ['node -e ""', `${m.node.toFixed(1)} ms`],
      ['recall --hook, every trick', ratio(m.recall)],
      ['  without the code cache', ratio(m.recallNoCache)],
      ['  without builtins-once', ratio(m.recallNoBuiltinsOnce)],
      ['  without ascii-bundles', ratio(m.recallNoAscii)],
      ['context --hook, every trick', ratio(m.context)],
      ['  without the code cache', ratio(m.contextNoCache)],
      ['  without builtins-once', ratio(m.contextNoBuiltinsOnce)],
      ['  without ascii-bundles', ratio(m.contextNoAscii)],
      ['memdir where, every trick', ratio(m.where)],
      ['  without the code cache', ratio(m.whereNoCache)],
      ['  without builtins-once', ratio(m.whereNoBuiltinsOnce)],
      ['  without ascii-bundles', ratio(m.whereNoAscii)],
      ['porter.ts: load, stem five words (in process)', `${m.stemHand.toFixed(2)} ms`],
      ['stemmer package: the same', `${m.stemPackage.toFixed(2)} ms`],
    ]);
    return m;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(memories, { recursive: true, force: true });
  }
}
