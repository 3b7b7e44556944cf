// The PreToolUse guard (`memdir guard --hook`), which Claude Code runs before every Write, Edit and
// MultiEdit: on a write outside the memory directory (goal ≤ 1.3× a bare `node -e ""`) and on a
// MEMORY.md write in a 200-memory directory (goal ≤ 2×), interleaved in one run. The hook runs as
// installed: no --dir, the memory directory found from the session's cwd as Claude Code finds it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compare, environmentLabel, generateMemoryDir, hookEnv, report, root, timeBareNode, timeCommand } from './lib.js';

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
  const index = fs.readFileSync(path.join(memory, 'MEMORY.md'), 'utf8');
  const lastLine = `${index.trimEnd().split('\n').at(-1)}\n`;

  let session = 0;
  const run = (tool_name, tool_input) =>
    timeCommand(process.execPath, [bin, 'guard', '--hook'], {
      cwd: project,
      stdio: ['pipe', 'pipe', 'pipe'],
      env,
      input: JSON.stringify({ session_id: `bench-${session++}`, hook_event_name: 'PreToolUse', cwd: project, tool_name, tool_input }),
    });
  const candidates = {
    node: () => timeBareNode(env),
    // The floor of any fast path (bin, code cache, a bundle of the hook runtime): `where`, which reads no input.
    where: () => timeCommand(process.execPath, [bin, 'where'], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'], env }),
    // A source file: the guard answers before it resolves anything.
    outsideCode: () => run('Write', { file_path: path.join(project, 'src/app.ts'), content: 'export const x = 1;\n' }),
    // A Markdown file of the project: the memory directory is resolved, and the file is not in it.
    outsideMarkdown: () => run('Edit', { file_path: path.join(project, 'README.md'), old_string: '# app', new_string: '# App' }),
    // One pointer added to MEMORY.md: read, edited in memory, judged, allowed.
    indexPointer: () =>
      run('Edit', { file_path: path.join(memory, 'MEMORY.md'), old_string: lastLine, new_string: `${lastLine}- [Deploy day](project_deploy.md) — deploys go out on Tuesdays only\n` }),
    // 30 inline lines written into MEMORY.md: refused.
    indexInline: () =>
      run('Write', { file_path: path.join(memory, 'MEMORY.md'), content: `${index}\n## Deploy\n${'Deploy: run pnpm build, copy dist to the bucket, purge the CDN cache.\n'.repeat(30)}` }),
  };
  for (const [name, go] of Object.entries(candidates)) if (name !== 'node') go();
  // The refused write answers with a deny decision; the others say nothing.
  const check = spawnSync(process.execPath, [bin, 'guard', '--hook'], {
    cwd: project,
    env,
    encoding: 'utf8',
    input: JSON.stringify({
      session_id: 'check',
      hook_event_name: 'PreToolUse',
      cwd: project,
      tool_name: 'Write',
      tool_input: { file_path: path.join(memory, 'MEMORY.md'), content: `${index}\nSome inline paragraph about deploys.\n` },
    }),
  });
  if (!check.stdout.includes('"permissionDecision":"deny"')) throw new Error(`the guard did not refuse inline content: ${check.stdout}${check.stderr}`);
  const times = compare(candidates, rounds);
  for (const dir of [home, project]) fs.rmSync(dir, { recursive: true, force: true });

  const ratio = (name) => `${times[name].toFixed(1)} ms (${(times[name] / times.node).toFixed(2)}×)`;
  report(`guard (median of ${rounds}, interleaved, ${environmentLabel})`, [
    ['node -e ""', `${times.node.toFixed(1)} ms`],
    ['memdir where (fast-path floor, for reference)', ratio('where')],
    ['Write of a source file (goal ≤ 1.3×)', ratio('outsideCode')],
    ['Edit of README.md outside the memory directory (goal ≤ 1.3×)', ratio('outsideMarkdown')],
    ['Edit adding one pointer to MEMORY.md, 200 memories (goal ≤ 2×)', ratio('indexPointer')],
    ['Write of 30 inline lines into MEMORY.md, refused, 200 memories (goal ≤ 2×)', ratio('indexInline')],
  ]);
  return times;
}
