// Hooks: what memdir adds to a commit that stages no memory file (against the
// same commit with no hook), and the UserPromptSubmit and SessionStart hook round trips
// on a 200-memory directory (against a bare `node -e ""`), interleaved in one run; the prompt hook
// gets a 1 MB transcript, and SessionStart runs at startup and after a compaction.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baseBin, baseRows, benchEnv, compare, hookEnv, environmentLabel, generateMemoryDir, realMemoryDir, report, root, timeBareNode, timeCommand } from './lib.js';

const bin = path.join(root, 'bin/memdir.cjs');

function git(cwd, args) {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

/** A repository with a tracked memory directory, so the hook's memory-file check has work to do. */
function repository(withHook) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-hooks-'));
  git(dir, ['init', '-q']);
  git(dir, ['config', 'user.name', 'bench']);
  git(dir, ['config', 'user.email', 'bench@memdir.invalid']);
  git(dir, ['config', 'commit.gpgsign', 'false']);
  fs.mkdirSync(path.join(dir, '.claude/memory'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.claude/memory/MEMORY.md'), '# Memory\n');
  fs.writeFileSync(path.join(dir, 'README.md'), '# app\n');
  git(dir, ['add', '.']);
  git(dir, ['commit', '-q', '-m', 'initial']);
  if (withHook) {
    const installed = spawnSync(process.execPath, [bin, 'hooks', 'install', '--git', '--quiet'], { cwd: dir });
    if (installed.status !== 0) throw new Error(`hooks install: ${installed.stderr}`);
  }
  return dir;
}

/** Stage a change to a non-memory Markdown file and a source file (not timed), then time the commit. */
function timedCommit(dir, round) {
  fs.writeFileSync(path.join(dir, 'README.md'), `# app\n\nround ${round}\n`);
  fs.writeFileSync(path.join(dir, 'app.js'), `export const round = ${round};\n`);
  git(dir, ['add', 'README.md', 'app.js']);
  return timeCommand('git', ['commit', '-q', '-m', `round ${round}`], { cwd: dir });
}

export default function hooks({ rounds = 30 } = {}) {
  const plain = repository(false);
  const hooked = repository(true);
  let round = 0;
  const commits = compare({ plain: () => timedCommit(plain, round++), hooked: () => timedCommit(hooked, round++) }, rounds);

  // 200 generated memories (ASCII, a small vocabulary) and 200 real ones (test/fixtures/real, copied).
  const memories = generateMemoryDir(200);
  const realMemories = realMemoryDir(200);
  const env = benchEnv();
  // A session's transcript as the prompt hook gets it: 1 MB of a real 2.1.197 session, ending with a
  // relevant_memories attachment (Claude Code's own recall) that the hook reads in its 256 KB tail.
  const transcriptDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-transcript-'));
  const transcript = path.join(transcriptDir, 'session.jsonl');
  const sessionLines = fs.readFileSync(path.join(root, 'test/fixtures/shared/claude-code-2.1.197/session-writes-memory.jsonl'), 'utf8');
  const recalledLine = `${JSON.stringify({ type: 'attachment', attachment: { type: 'relevant_memories', memories: [{ path: path.join(memories, 'gone.md'), content: 'x', mtimeMs: 0, header: 'Memory: gone.md:' }] } })}\n`;
  fs.writeFileSync(transcript, sessionLines.repeat(Math.ceil(1_000_000 / sessionLines.length)) + recalledLine + sessionLines);
  // A session the prompt hook surfaced five memories in, for SessionStart after a compaction.
  const surfaced = fs
    .readdirSync(memories)
    .filter((name) => name.endsWith('.md') && name !== 'MEMORY.md')
    .slice(0, 5);
  fs.mkdirSync(path.join(memories, '.memdir/recall-sessions'), { recursive: true });
  fs.writeFileSync(path.join(memories, '.memdir/recall-sessions/bench-compacted.json'), JSON.stringify({ surfaced, bytes: 0 }));
  let session = 0;
  // Each asks what its memories answer (both inject memories; a silent abstention would be cheaper).
  const ask = (dir, prompt, memdir = bin) =>
    timeCommand(process.execPath, [memdir, 'recall', '--hook', '--dir', dir], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: hookEnv(dir),
      input: JSON.stringify({ session_id: `bench-${session++}`, transcript_path: transcript, hook_event_name: 'UserPromptSubmit', cwd: dir, prompt }),
    });
  const generated = (memdir) => ask(memories, 'can I merge the mobile branch during the release freeze?', memdir);
  const real = (memdir) => ask(realMemories, 'how do we deploy the app to production?', memdir);
  // SessionStart: the instructions and the index of the same 200 memories.
  // After a compaction the same hook also brings back the five memories of the session's record.
  const sessionStart = (memdir = bin, source = 'startup') =>
    timeCommand(process.execPath, [memdir, 'context', '--hook', '--dir', memories], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: hookEnv(memories),
      input: JSON.stringify({ session_id: source === 'compact' ? 'bench-compacted' : `bench-${session++}`, transcript_path: transcript, hook_event_name: 'SessionStart', cwd: memories, source }),
    });
  const candidates = { node: () => timeBareNode(env), hook: () => generated(), hookReal: () => real(), context: () => sessionStart(), contextCompact: () => sessionStart(bin, 'compact') };
  if (baseBin)
    Object.assign(candidates, {
      baseHook: () => generated(baseBin),
      baseHookReal: () => real(baseBin),
      baseContext: () => sessionStart(baseBin),
      baseContextCompact: () => sessionStart(baseBin, 'compact'),
    });
  for (const [name, run] of Object.entries(candidates)) if (name !== 'node') run();
  const recall = compare(candidates, rounds);
  for (const dir of [plain, hooked, memories, realMemories, transcriptDir]) fs.rmSync(dir, { recursive: true, force: true });

  const added = commits.hooked - commits.plain;
  const ratio = recall.hook / recall.node;
  report(`hooks (median of ${rounds}, interleaved, ${environmentLabel})`, [
    ['git commit, no hook', `${commits.plain.toFixed(1)} ms`],
    ['git commit + pre-commit, no memory staged', `${commits.hooked.toFixed(1)} ms`],
    ['added by the hook (goal < 50 ms)', `${added.toFixed(1)} ms`],
    ['node -e ""', `${recall.node.toFixed(1)} ms`],
    ['recall --hook, 200 memories', `${recall.hook.toFixed(1)} ms`],
    ['recall hook / node (goal ≤ 2×)', `${ratio.toFixed(2)}×`],
    ['recall --hook, 200 real memories', `${recall.hookReal.toFixed(1)} ms (${(recall.hookReal / recall.node).toFixed(2)}×)`],
    ['context --hook (SessionStart), 200 memories', `${recall.context.toFixed(1)} ms (${(recall.context / recall.node).toFixed(2)}×)`],
    ['context --hook after a compaction (5 memories back)', `${recall.contextCompact.toFixed(1)} ms (${(recall.contextCompact / recall.node).toFixed(2)}×)`],
    ...baseRows(
      [
        ['recall --hook, 200 memories', recall.baseHook],
        ['recall --hook, 200 real memories', recall.baseHookReal],
        ['context --hook (SessionStart), 200 memories', recall.baseContext],
        ['context --hook after a compaction (index only before)', recall.baseContextCompact],
      ],
      recall.node,
    ),
  ]);
  return { commits, added, recall, ratio };
}
