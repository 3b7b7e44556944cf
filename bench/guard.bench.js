// The PreToolUse guard (`memdir guard --hook`), which Claude Code runs before every Write, Edit and
// MultiEdit: on a write outside the memory directory (goal ≤ 1.3× a bare `node -e ""`) and on a
// MEMORY.md write in a 200-memory directory (goal ≤ 2×), interleaved in one run. The hook runs as
// installed: no --dir, the memory directory found from the session's cwd as Claude Code finds it.
// Stdin is a socket, as Node's child stdio (and so Claude Code's) gives a hook. BENCH_BASE=<built
// checkout> runs its bin on the same rows, interleaved.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baseBin, baseRows, compare, environmentLabel, generateMemoryDir, hookEnv, report, root, timeBareNode, timeCommand } from './lib.js';

const bin = path.join(root, 'bin/memdir.cjs');

export default function guard({ rounds = 30 } = {}) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-guard-home-'));
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-guard-app-'));
  fs.mkdirSync(path.join(project, '.git'));
  fs.writeFileSync(path.join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const env = { ...hookEnv(project), HOME: home };
  const where = spawnSync(process.execPath, [bin, 'where'], { cwd: project, env, encoding: 'utf8' });
  if (where.status !== 0) throw new Error(`memdir where: ${where.stderr}`);
  const memory = where.stdout.trim();
  const generated = generateMemoryDir(200);
  fs.mkdirSync(path.dirname(memory), { recursive: true });
  fs.cpSync(generated, memory, { recursive: true });
  fs.rmSync(generated, { recursive: true, force: true });
  // 200 memories, the last one's pointer not written yet: the edit below adds it (200 lines, allowed).
  const pointers = fs.readFileSync(path.join(memory, 'MEMORY.md'), 'utf8').trimEnd().split('\n');
  const missing = `${pointers.pop()}\n`;
  const lastLine = `${pointers.at(-1)}\n`;
  const index = `${pointers.join('\n')}\n`;
  fs.writeFileSync(path.join(memory, 'MEMORY.md'), index);

  let session = 0;
  const input = (tool_name, tool_input) => JSON.stringify({ session_id: `bench-${session++}`, hook_event_name: 'PreToolUse', cwd: project, tool_name, tool_input });
  const run = (binary) => (tool_name, tool_input) =>
    timeCommand(process.execPath, [binary, 'guard', '--hook'], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'], env, input: input(tool_name, tool_input) });
  const writes = {
    // A source file: the guard answers before it resolves anything.
    outsideCode: ['Write', { file_path: path.join(project, 'src/app.ts'), content: 'export const x = 1;\n' }],
    // A Markdown file of the project: outside every folder the memory directory can be in.
    outsideMarkdown: ['Edit', { file_path: path.join(project, 'README.md'), old_string: '# app', new_string: '# App' }],
    // The missing pointer added to MEMORY.md: read, edited in memory, judged, allowed.
    indexPointer: ['Edit', { file_path: path.join(memory, 'MEMORY.md'), old_string: lastLine, new_string: `${lastLine}${missing}` }],
    // 30 inline lines written into MEMORY.md: refused.
    indexInline: ['Write', { file_path: path.join(memory, 'MEMORY.md'), content: `${index}\n## Deploy\n${'Deploy: run pnpm build, copy dist to the bucket, purge the CDN cache.\n'.repeat(30)}` }],
  };
  const candidates = {
    node: () => timeBareNode(env),
    // The floor of any fast path (bin, code cache, a bundle of the hook runtime): `where`, which reads no input.
    where: () => timeCommand(process.execPath, [bin, 'where'], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'], env }),
    ...Object.fromEntries(Object.entries(writes).map(([name, [tool, toolInput]]) => [name, () => run(bin)(tool, toolInput)])),
    ...(baseBin && Object.fromEntries(Object.entries(writes).map(([name, [tool, toolInput]]) => [`base_${name}`, () => run(baseBin)(tool, toolInput)]))),
  };
  for (const [name, go] of Object.entries(candidates)) if (name !== 'node') go();
  // The refused write answers with a deny decision; the others say nothing.
  const answer = (name) => spawnSync(process.execPath, [bin, 'guard', '--hook'], { cwd: project, env, encoding: 'utf8', input: input(...writes[name]) });
  for (const name of ['outsideCode', 'outsideMarkdown', 'indexPointer']) {
    const { stdout, stderr } = answer(name);
    if (stdout || stderr) throw new Error(`the guard did not let ${name} through silently: ${stdout}${stderr}`);
  }
  const refused = answer('indexInline');
  if (!refused.stdout.includes('"permissionDecision":"deny"')) throw new Error(`the guard did not refuse inline content: ${refused.stdout}${refused.stderr}`);
  const times = compare(candidates, rounds);
  for (const dir of [home, project]) fs.rmSync(dir, { recursive: true, force: true });

  const ratio = (name) => `${times[name].toFixed(1)} ms (${(times[name] / times.node).toFixed(2)}×)`;
  const size = (file) => `${(fs.statSync(path.join(root, file)).size / 1024).toFixed(1)} KB`;
  const labels = [
    ['outsideCode', 'Write of a source file (goal ≤ 1.3×)'],
    ['outsideMarkdown', 'Edit of README.md outside the memory directory (goal ≤ 1.3×)'],
    ['indexPointer', 'Edit adding the 200th pointer to MEMORY.md, allowed (goal ≤ 2×)'],
    ['indexInline', 'Write of 30 inline lines into MEMORY.md, refused, 200 memories (goal ≤ 2×)'],
  ];
  report(`guard (median of ${rounds}, interleaved, ${environmentLabel})`, [
    ['node -e ""', `${times.node.toFixed(1)} ms`],
    ['memdir where (fast-path floor, for reference)', ratio('where')],
    ...labels.map(([name, label]) => [label, ratio(name)]),
    ['bundles: dist/fast/guard.cjs (every write), dist/guard-hook.cjs (a write that may be a memory)', `${size('dist/fast/guard.cjs')}, ${size('dist/guard-hook.cjs')}`],
    ...baseRows(
      labels.map(([name, label]) => [label, times[`base_${name}`]]),
      times.node,
    ),
  ]);
  return times;
}
