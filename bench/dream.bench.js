// `memdir dream` over a generated 2,000-memory directory with 100 new transcripts, next to
// `memdir refactor` of the same directory in the same run (wall time, peak memory); and the
// not-due path of `dream --hook` (what every SessionEnd pays) next to a bare `node -e ""`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchEnv, hookEnv, compare, environmentLabel, generateMemoryDir, measure, median, report, root, timeBareNode, timeCommand } from './lib.js';

/** Claude Code's folder name for a project path (as src/core/paths.ts sanitizeProjectPath, short paths). */
const sanitize = (p) => p.replace(/[^a-zA-Z0-9]/g, '-');

/** `count` session transcripts of a few turns each, in the project's Claude Code folder. */
function generateTranscripts(home, project, count) {
  const folder = path.join(home, '.claude', 'projects', sanitize(project));
  fs.mkdirSync(folder, { recursive: true });
  for (let s = 0; s < count; s++) {
    const lines = [];
    let parent = null;
    for (let t = 0; t < 10; t++) {
      const uuid = `${s}-${t}`;
      const user = t % 2 === 0;
      const content = user ? `remember that the billing service ${s} deploys on fridays (turn ${t})` : [{ type: 'text', text: `Noted, turn ${t}.` }];
      lines.push(
        JSON.stringify({
          type: user ? 'user' : 'assistant',
          uuid,
          parentUuid: parent,
          sessionId: `session-${s}`,
          timestamp: new Date(Date.UTC(2026, 2, 1, 0, s, t)).toISOString(),
          message: { role: user ? 'user' : 'assistant', content },
        }),
      );
      parent = uuid;
    }
    fs.writeFileSync(path.join(folder, `session-${s}.jsonl`), `${lines.join('\n')}\n`);
  }
}

export default function dream({ memories = 2000, transcripts = 100, rounds = 3, hookRounds = 30 } = {}) {
  const bin = path.join(root, 'bin/memdir.cjs');
  const dreams = [];
  const refactors = [];
  for (let i = 0; i < rounds; i++) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-dream-'));
    const home = path.join(base, 'home');
    const project = path.join(base, 'project');
    fs.mkdirSync(project, { recursive: true });
    generateTranscripts(home, project, transcripts);
    const dreamDir = generateMemoryDir(memories, { prefix: 'memdir-bench-dream-dir-' });
    const refactorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-refactor-dir-'));
    fs.cpSync(dreamDir, refactorDir, { recursive: true });
    try {
      // The gate, the session count over the transcripts and the whole consolidation.
      dreams.push(measure([bin, 'dream', '--dir', dreamDir, '--max-delete', '100', '--min-sessions', String(transcripts), '--quiet'], { env: { HOME: home }, cwd: project }));
      refactors.push(measure([bin, 'refactor', '--dir', refactorDir, '--quiet'], { env: { HOME: home }, cwd: project }));
    } finally {
      for (const dir of [base, dreamDir, refactorDir]) fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const dreamWall = median(dreams.map((r) => r.ms));
  const refactorWall = median(refactors.map((r) => r.ms));
  const dreamRss = Math.max(...dreams.map((r) => r.rss));
  const refactorRss = Math.max(...refactors.map((r) => r.rss));

  // Not due: consolidated a minute ago.
  const notDue = generateMemoryDir(20, { prefix: 'memdir-bench-dream-hook-' });
  fs.writeFileSync(path.join(notDue, '.consolidate-lock'), '');
  const env = benchEnv();
  const sessionEnd = JSON.stringify({ session_id: 'bench-session', cwd: notDue, hook_event_name: 'SessionEnd', reason: 'exit' });
  timeCommand(process.execPath, [bin, 'dream', '--hook', '--dir', notDue], { env });
  const medians = compare(
    {
      node: () => timeBareNode(env),
      hook: () => timeCommand(process.execPath, [bin, 'dream', '--hook', '--dir', notDue], { env }),
      // As Claude Code runs it: the SessionEnd JSON on a pipe (the row above has no input, stdin /dev/null).
      piped: () => timeCommand(process.execPath, [bin, 'dream', '--hook', '--dir', notDue], { env: hookEnv(notDue), input: sessionEnd, stdio: ['pipe', 'pipe', 'pipe'] }),
    },
    hookRounds,
  );
  fs.rmSync(notDue, { recursive: true, force: true });
  const ratio = medians.hook / medians.node;
  report(`dream: ${memories} memories, ${transcripts} new transcripts (median of ${rounds}); not-due hook (median of ${hookRounds}, interleaved, ${environmentLabel})`, [
    ['memdir refactor (same directory)', `${refactorWall.toFixed(0)} ms, ${(refactorRss / 1024).toFixed(0)} MB peak`],
    [
      'memdir dream',
      `${dreamWall.toFixed(0)} ms, ${(dreamRss / 1024).toFixed(0)} MB peak (${(dreamWall / refactorWall).toFixed(2)}× the time, ${(dreamRss / refactorRss).toFixed(2)}× the memory of refactor)`,
    ],
    ['node -e ""', `${medians.node.toFixed(1)} ms`],
    ['dream --hook, not due', `${medians.hook.toFixed(1)} ms`],
    ['not-due hook / node (goal < 1.5×)', `${ratio.toFixed(2)}×`],
    ['dream --hook, not due, SessionEnd JSON on a pipe', `${medians.piped.toFixed(1)} ms (${(medians.piped / medians.node).toFixed(2)}×)`],
  ]);
  return { dreamWall, refactorWall, dreamRss, refactorRss, hook: medians.hook, piped: medians.piped, node: medians.node, ratio };
}
