// `memdir doctor --all-projects` on a HOME with 200 project folders and 5,000 transcripts (goal: under
// 2 s), against a bare Node walk of the same tree (bare-walk.js) and `node -e ""`, interleaved in one run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baseBin, benchEnv, compare, environmentLabel, report, root, timeBareNode, timeCommand } from './lib.js';

const bin = path.join(root, 'bin/memdir.cjs');
const recorded = fs.readFileSync(path.join(root, 'test/fixtures/shared/claude-code-2.1.197/session-writes-memory.jsonl'), 'utf8').split('\n').filter(Boolean);
const sanitize = (p) => p.replace(/[^a-zA-Z0-9]/g, '-');

/** A real transcript's lines with another session id and working directory. */
function transcript(cwd, session) {
  return `${recorded
    .map((line) => {
      const entry = JSON.parse(line);
      if ('sessionId' in entry) entry.sessionId = session;
      if ('cwd' in entry) entry.cwd = cwd;
      return JSON.stringify(entry);
    })
    .join('\n')}\n`;
}

/** `folders` project folders of `perFolder` transcripts each; a third of the projects gone, each folder with 5 memories. */
function tree(folders, perFolder) {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-doctor-')));
  const projects = path.join(base, 'home', '.claude', 'projects');
  for (let f = 0; f < folders; f++) {
    const cwd = path.join(base, 'src', `project-${f}`);
    if (f % 3 !== 0) fs.mkdirSync(path.join(cwd, '.git'), { recursive: true });
    const folder = path.join(projects, sanitize(cwd));
    fs.mkdirSync(path.join(folder, 'memory'), { recursive: true });
    for (let t = 0; t < perFolder; t++) fs.writeFileSync(path.join(folder, `s-${f}-${t}.jsonl`), transcript(cwd, `s-${f}-${t}`));
    for (let m = 0; m < 5; m++) fs.writeFileSync(path.join(folder, 'memory', `project_${m}.md`), `---\nname: m${m}\ndescription: memory ${m}\ntype: project\n---\n\nBody.\n`);
  }
  const here = path.join(base, 'src', 'project-1');
  return { base, here, home: path.join(base, 'home') };
}

export default function doctor({ folders = 200, perFolder = 25, rounds = 7 } = {}) {
  const { base, here, home } = tree(folders, perFolder);
  const env = benchEnv({ HOME: home });
  try {
    const medians = compare(
      {
        node: () => timeBareNode(env),
        walk: () => timeCommand(process.execPath, [path.join(root, 'bench/bare-walk.js'), home], { env }),
        doctor: () => timeCommand(process.execPath, [bin, 'doctor', '--all-projects', '--json'], { cwd: here, env }, [0, 1]),
        // BENCH_BASE: the same doctor by another built checkout, interleaved with this one's (before/after in one run).
        ...(baseBin && { base: () => timeCommand(process.execPath, [baseBin, 'doctor', '--all-projects', '--json'], { cwd: here, env }, [0, 1]) }),
      },
      rounds,
    );
    report(`doctor --all-projects, ${folders} folders, ${folders * perFolder} transcripts (median of ${rounds}, interleaved, ${environmentLabel})`, [
      ['node -e ""', `${medians.node.toFixed(0)} ms`],
      ['bare Node walk of the tree', `${medians.walk.toFixed(0)} ms`],
      ['memdir doctor --all-projects --json', `${medians.doctor.toFixed(0)} ms`],
      ['doctor / walk', `${(medians.doctor / medians.walk).toFixed(2)}×`],
      ['doctor (goal < 2,000 ms)', medians.doctor < 2000 ? 'met' : 'missed'],
      ...(baseBin
        ? [
            [`BENCH_BASE ${process.env.BENCH_BASE} doctor`, `${medians.base.toFixed(0)} ms`],
            ['doctor / BENCH_BASE', `${(medians.doctor / medians.base).toFixed(2)}×`],
          ]
        : []),
    ]);
    return medians;
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}
