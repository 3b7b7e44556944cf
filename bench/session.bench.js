// Session notes of a ~100 MB transcript (a real one repeated with fresh uuids: one long session)
// against a bare Node process that reads the same file and JSON.parses every line, each in its own
// process, interleaved in one run. Timed inside each process (file open to the end) as wall clock
// and CPU time; memory is the process's peak RSS. The whole `memdir session --from` command (start
// included) is timed from outside once per round as well.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { generateSession } from './session/generate.js';
import { benchEnv, compareRotated, environmentLabel, hookEnv, report, readStats, root, runChildJson, timeBareNode, timeCommand } from './lib.js';

const SOURCE = 'test/fixtures/shared/transcripts/d-kimuson+claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl';

export default async function session({ megabytes = 100, rounds = 5 } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-session-'));
  try {
    const file = path.join(work, 'session.jsonl');
    const bytes = generateSession(file, megabytes * 1024 * 1024, path.join(root, SOURCE));
    const bare = path.join(root, 'bench/extract/bare-parse.js');
    const child = path.join(root, 'bench/session/notes-child.js');
    const library = path.join(root, 'dist/index.js');
    const runs = { bare: [], memdir: [], command: [] };
    let last;
    runChildJson(bare, [file]); // warm the page cache
    for (let i = 0; i < rounds; i++) {
      runs.bare.push(runChildJson(bare, [file]));
      const dir = path.join(work, `memory-${i}`);
      last = runChildJson(child, [file, dir, library]);
      runs.memdir.push(last);
      const started = process.hrtime.bigint();
      const cli = spawnSync(process.execPath, [path.join(root, 'bin/memdir.cjs'), 'session', '--from', file, '--dir', path.join(work, `cli-${i}`), '--quiet'], { encoding: 'utf8' });
      if (cli.status !== 0) throw new Error(`memdir session exited ${cli.status}: ${cli.stderr}`);
      runs.command.push({ ms: Number(process.hrtime.bigint() - started) / 1e6 });
    }
    const { ms, peakMb, row, ratio, cpuRatio } = readStats(runs, bytes);
    report(`session notes, ${(bytes / 1024 / 1024).toFixed(0)} MB transcript, ${last.lines} lines (median of ${rounds}, interleaved; peak RSS = max)`, [
      ['bare node: chunked read + JSON.parse', row('bare')],
      ['memdir keepSessionNotes (read, local engine, write)', row('memdir')],
      ['memdir session --from (whole command, start included)', `${ms('command').toFixed(0)} ms`],
      ['memdir / bare', `${ratio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU`],
      ['conversation tokens / notes tokens (budget 6,000)', `${last.conversationTokens} / ${last.notesTokens}`],
      ['lines folded to stay within budget', JSON.stringify(last.folded)],
    ]);

    // The Stop hook on the turns that cannot be due: the notes were written at the end of the
    // transcript (round 0's directory), then the transcript is unchanged, or has grown by less than
    // the 5,000 tokens' 20,000 bytes. Against a bare `node -e ""` start, rotated, in one run.
    const hookRounds = 20;
    const dir = path.join(work, 'memory-0');
    const env = benchEnv();
    const sessionId = JSON.parse(
      fs
        .readFileSync(file, 'utf8')
        .slice(0, 100_000)
        .split('\n')
        .find((l) => l.includes('"sessionId"')),
    ).sessionId;
    const input = JSON.stringify({ session_id: sessionId, transcript_path: file, cwd: work, hook_event_name: 'Stop', stop_hook_active: false });
    const bin = path.join(root, 'bin/memdir.cjs');
    const hook = () => timeCommand(process.execPath, [bin, 'session', '--hook', '--dir', dir], { env: hookEnv(work), input, stdio: ['pipe', 'pipe', 'pipe'] });
    hook();
    // The peer already installed on Stop: extract's hook with its cursor at the end (nothing new).
    const extractDir = path.join(work, 'extract-memory');
    const extracted = spawnSync(process.execPath, [bin, 'extract', '--from', file, '--dir', extractDir, '--engine', 'local', '--session-id', sessionId, '--quiet'], { env, encoding: 'utf8' });
    if (extracted.status !== 0) throw new Error(`extract exited ${extracted.status}: ${extracted.stderr}`);
    const extractHook = () => timeCommand(process.execPath, [bin, 'extract', '--hook', '--dir', extractDir, '--engine', 'local'], { env: hookEnv(work), input, stdio: ['pipe', 'pipe', 'pipe'] });
    const unchanged = compareRotated({ node: () => timeBareNode(env), hook, extractHook }, hookRounds);
    fs.appendFileSync(file, `${JSON.stringify({ type: 'user', uuid: 'bench-grown', parentUuid: null, sessionId, message: { role: 'user', content: 'x'.repeat(10_000) } })}\n`);
    const grown = compareRotated({ node: () => timeBareNode(env), hook }, hookRounds);
    const started = fs.existsSync(path.join(dir, '.memdir/session.log'));
    report(`session --hook on a turn that cannot be due, 100 MB transcript (median of ${hookRounds}, rotated, ${environmentLabel})`, [
      ['node -e ""', `${unchanged.node.toFixed(1)} ms`],
      ['memdir session --hook, transcript unchanged', `${unchanged.hook.toFixed(1)} ms (${(unchanged.hook / unchanged.node).toFixed(2)}× node)`],
      ['memdir extract --hook, nothing new (the Stop hook already installed)', `${unchanged.extractHook.toFixed(1)} ms (${(unchanged.extractHook / unchanged.node).toFixed(2)}× node)`],
      ['memdir session --hook, grown by 10 KB', `${grown.hook.toFixed(1)} ms (${(grown.hook / grown.node).toFixed(2)}× node)`],
      ['detached run started', started ? 'yes (should not be)' : 'no'],
    ]);
    return { bare: ms('bare'), memdir: ms('memdir'), ratio, cpuRatio, peakMb: peakMb('memdir'), hook: unchanged.hook / unchanged.node };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
