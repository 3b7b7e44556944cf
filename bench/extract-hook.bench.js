// The Stop hook when nothing is new: `memdir extract --hook` with the session's cursor at the end
// of a 20 MB transcript, against a bare `node -e ""` start, interleaved in one run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { generateTranscript } from './extract/generate-transcript.js';
import { baseBin, baseRows, benchEnv, hookEnv, compare, environmentLabel, report, root, timeBareNode, timeCommand } from './lib.js';

export default function extractHook({ megabytes = 20, rounds = 30 } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-hook-'));
  try {
    const bin = path.join(root, 'bin/memdir.cjs');
    const env = benchEnv();
    const transcript = path.join(work, 'session.jsonl');
    const dir = path.join(work, 'memory');
    generateTranscript(transcript, megabytes * 1024 * 1024, path.join(root, 'test/fixtures/shared'));
    const sessionId = 'bench-session';
    // One real run puts the cursor at the end (a run over 20 MB of generated turns).
    const first = spawnSync(process.execPath, [bin, 'extract', '--from', transcript, '--dir', dir, '--engine', 'local', '--session-id', sessionId, '--quiet'], { env, encoding: 'utf8' });
    if (first.status !== 0) throw new Error(`extract exited ${first.status}: ${first.stderr}`);
    const input = JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd: work, hook_event_name: 'Stop', stop_hook_active: false });
    const run = (memdir) => () => timeCommand(process.execPath, [memdir, 'extract', '--hook', '--dir', dir, '--engine', 'local'], { env: hookEnv(work), input, stdio: ['pipe', 'pipe', 'pipe'] });
    const hook = run(bin);
    hook();
    const medians = compare({ node: () => timeBareNode(env), hook, ...(baseBin && { baseHook: run(baseBin) }) }, rounds);
    const ratio = medians.hook / medians.node;
    const spawned = fs.existsSync(path.join(dir, '.memdir/extract.log'));
    report(`extract --hook, nothing new, ${megabytes} MB transcript (median of ${rounds}, interleaved, ${environmentLabel})`, [
      ['node -e ""', `${medians.node.toFixed(1)} ms`],
      ['memdir extract --hook', `${medians.hook.toFixed(1)} ms`],
      ['hook / node (goal < 1.5×)', `${ratio.toFixed(2)}×`],
      ['detached run started', spawned ? 'yes (should not be)' : 'no'],
      ...baseRows([['memdir extract --hook', medians.baseHook]], medians.node),
    ]);
    return { ...medians, ratio };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
