// The persistent recall index: the UserPromptSubmit hook on a warm index against a bare `node -e ""`
// (and against the full CLI path), cold and warm recall over 5,000 files against the bare read of
// the same files, and what building the index costs in time and on disk. Candidates interleaved.
import fs from 'node:fs';
import path from 'node:path';
import { bareReadLoop, benchEnv, hookEnv, compare, environmentLabel, generateMemoryDir, realMemoryDir, report, root, time, timeBareNode, timeCommand } from './lib.js';

const bin = path.join(root, 'bin/memdir.cjs');
const fullCli = path.join(root, 'dist/cli.cjs');
const QUERY = 'can I merge the mobile branch during the release freeze?';

const env = benchEnv();
let session = 0;
/** One UserPromptSubmit hook answered through `entry` (the bin and its fast path, or the full CLI). */
function prompt(entry, dir) {
  return timeCommand(process.execPath, [entry, 'recall', '--hook', '--dir', dir], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: hookEnv(dir),
    input: JSON.stringify({ session_id: `bench-${session++}`, cwd: dir, prompt: QUERY }),
  });
}

function hookRound({ rounds }) {
  const dir = generateMemoryDir(200);
  const run = (entry) => prompt(entry, dir);
  run(bin); // builds the index: every timed run below finds it warm
  const medians = compare(
    {
      node: () => timeBareNode(env),
      hook: () => run(bin),
      fullCli: () => run(fullCli),
    },
    rounds,
  );
  fs.rmSync(dir, { recursive: true, force: true });
  return medians;
}

/** The hook over the memories of `dir` as whole processes, against a process reading the same files. */
function hookOverMany({ dir, rounds }) {
  const index = path.join(dir, '.memdir/recall-index.jsonl');
  try {
    prompt(bin, dir);
    const medians = compare(
      {
        bare: () => timeCommand(process.execPath, [path.join(root, 'bench/bare-read.js'), dir], { env }),
        firstPrompt: () => {
          fs.rmSync(index, { force: true });
          return prompt(bin, dir);
        },
        warm: () => prompt(bin, dir),
      },
      rounds,
    );
    return medians;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function inProcess({ files, rounds }) {
  const { documentFor, loadDocs, RecallIndex, recallIndexPath } = await import(path.join(root, 'dist/internal.js'));
  const dir = generateMemoryDir(files);
  const query = (docs) => new RecallIndex(docs).search(QUERY, { limit: 5 });
  try {
    bareReadLoop(dir);
    const texts = fs.readdirSync(dir).flatMap((name) => (name.endsWith('.md') && name !== 'MEMORY.md' ? [[name, fs.readFileSync(path.join(dir, name), 'utf8')]] : []));
    const medians = compare(
      {
        bare: () => time(() => bareReadLoop(dir)),
        noIndex: () => time(() => query(loadDocs(dir))),
        build: () => {
          fs.rmSync(recallIndexPath(dir), { force: true });
          return time(() => query(loadDocs(dir, { persist: true })));
        },
        warm: () => time(() => query(loadDocs(dir, { persist: true }))),
        warmLoad: () => time(() => loadDocs(dir, { persist: true })),
        documents: () => time(() => texts.map(([name, text]) => documentFor(name, text, 0))),
      },
      rounds,
    );
    return { ...medians, bytes: fs.statSync(recallIndexPath(dir)).size };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export default async function recallIndex({ rounds = 20, files = 5000, coldRounds = 5 } = {}) {
  const hook = hookRound({ rounds });
  report(`recall --hook, 200 memories, warm index (median of ${rounds}, interleaved, ${environmentLabel})`, [
    ['node -e ""', `${hook.node.toFixed(1)} ms`],
    ['recall --hook (fast path)', `${hook.hook.toFixed(1)} ms (${(hook.hook / hook.node).toFixed(2)}×, goal ≤ 1.5×)`],
    ['recall --hook through the full CLI', `${hook.fullCli.toFixed(1)} ms (${(hook.fullCli / hook.node).toFixed(2)}×)`],
  ]);
  const vsBare = (ms, bare) => `${ms.toFixed(0)} ms (${(ms / bare).toFixed(2)}×)`;
  const many = hookOverMany({ dir: generateMemoryDir(files), rounds: coldRounds });
  const real = hookOverMany({ dir: realMemoryDir(files), rounds: coldRounds });
  for (const [kind, medians] of [
    ['generated files', many],
    ['real memories (test/fixtures/real, copied)', real],
  ]) {
    report(`recall --hook over ${files} ${kind}, whole processes (median of ${coldRounds}, interleaved, ${environmentLabel})`, [
      ['node bench/bare-read.js (list + read every file)', `${medians.bare.toFixed(0)} ms`],
      ['first prompt: no index, builds and writes it', vsBare(medians.firstPrompt, medians.bare)],
      ['next prompts: warm index (goal ≤ 3× bare)', vsBare(medians.warm, medians.bare)],
    ]);
  }
  const load = await inProcess({ files, rounds: coldRounds });
  report(`recall over ${files} generated files, in process (median of ${coldRounds}, interleaved)`, [
    ['bare Node loop reading the files', `${load.bare.toFixed(0)} ms`],
    ['no index: read, rank, query', vsBare(load.noIndex, load.bare)],
    ['index build (read, write) + query', vsBare(load.build, load.bare)],
    ['  of which the documents (documentFor, texts read)', vsBare(load.documents, load.bare)],
    ['warm index: stat, load, query', vsBare(load.warm, load.bare)],
    ['  of which stat + load (the rest is ranking)', vsBare(load.warmLoad, load.bare)],
    ['index on disk', `${(load.bytes / 1024 / 1024).toFixed(1)} MB (${Math.round(load.bytes / files)} bytes per file)`],
  ]);
  return { hook, many, real, load };
}
