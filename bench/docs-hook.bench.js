// The Stop hook of `memdir docs` when nothing is new: `memdir docs --hook` with the session's cursor
// at the end of a 20 MB transcript, in a git repository with a Magic Doc, against a bare `node -e ""`
// start and `memdir extract --hook` in the same state, interleaved in one run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { generateTranscript } from './extract/generate-transcript.js';
import { benchEnv, hookEnv, compare, environmentLabel, report, root, timeBareNode, timeCommand } from './lib.js';

export default function docsHook({ megabytes = 20, rounds = 30 } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-docs-hook-'));
  try {
    const bin = path.join(root, 'bin/memdir.cjs');
    // A key, so the hook would start a run if anything were new; nothing calls the model (no doc is read).
    const env = benchEnv({ ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
    const git = (...args) => spawnSync('git', ['-C', work, ...args], { encoding: 'utf8' });
    git('init', '-q');
    fs.mkdirSync(path.join(work, 'docs'));
    fs.writeFileSync(path.join(work, 'docs/api.md'), '# MAGIC DOC: API endpoints\n_One line per endpoint._\n\n- GET /users\n');
    git('add', '.');
    const transcript = path.join(work, 'session.jsonl');
    const dir = path.join(work, 'memory');
    generateTranscript(transcript, megabytes * 1024 * 1024, path.join(root, 'test/fixtures/shared'));
    const sessionId = 'bench-session';
    // One real run of each puts its cursor at the end.
    for (const command of [
      ['docs', '--from', transcript, '--dir', dir, '--engine', 'claude', '--session-id', sessionId, '--quiet'],
      ['extract', '--from', transcript, '--dir', dir, '--engine', 'local', '--session-id', sessionId, '--quiet'],
    ]) {
      const first = spawnSync(process.execPath, [bin, ...command], { env, cwd: work, encoding: 'utf8' });
      if (first.status !== 0) throw new Error(`${command[0]} exited ${first.status}: ${first.stderr}`);
    }
    const input = JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd: work, hook_event_name: 'Stop', stop_hook_active: false });
    const hookOptions = { env: { ...hookEnv(work), ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }, input, stdio: ['pipe', 'pipe', 'pipe'] };
    const docs = () => timeCommand(process.execPath, [bin, 'docs', '--hook', '--dir', dir], hookOptions);
    const extract = () => timeCommand(process.execPath, [bin, 'extract', '--hook', '--dir', dir, '--engine', 'local'], hookOptions);
    docs();
    extract();
    const medians = compare({ node: () => timeBareNode(env), docs, extract }, rounds);
    const spawned = fs.existsSync(path.join(dir, '.memdir/docs.log'));
    report(`docs --hook, nothing new, ${megabytes} MB transcript (median of ${rounds}, interleaved, ${environmentLabel})`, [
      ['node -e ""', `${medians.node.toFixed(1)} ms`],
      ['memdir docs --hook', `${medians.docs.toFixed(1)} ms`],
      ['memdir extract --hook', `${medians.extract.toFixed(1)} ms`],
      ['docs hook / node', `${(medians.docs / medians.node).toFixed(2)}×`],
      ['docs hook / extract hook', `${(medians.docs / medians.extract).toFixed(2)}×`],
      ['detached run started', spawned ? 'yes (should not be)' : 'no'],
    ]);
    return medians;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
