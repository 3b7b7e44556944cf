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
import { median, report, root } from './lib.js';

const SOURCE = 'test/fixtures/shared/transcripts/d-kimuson+claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl';

function runChild(script, args) {
  const result = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${script} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

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
    runChild(bare, [file]); // warm the page cache
    for (let i = 0; i < rounds; i++) {
      runs.bare.push(runChild(bare, [file]));
      const dir = path.join(work, `memory-${i}`);
      last = runChild(child, [file, dir, library]);
      runs.memdir.push(last);
      const started = process.hrtime.bigint();
      const cli = spawnSync(process.execPath, [path.join(root, 'bin/memdir.cjs'), 'session', '--from', file, '--dir', path.join(work, `cli-${i}`), '--quiet'], { encoding: 'utf8' });
      if (cli.status !== 0) throw new Error(`memdir session exited ${cli.status}: ${cli.stderr}`);
      runs.command.push({ ms: Number(process.hrtime.bigint() - started) / 1e6 });
    }
    const ms = (name) => median(runs[name].map((r) => r.ms));
    const cpuMs = (name) => median(runs[name].map((r) => r.cpuMs));
    const peakMb = (name) => Math.max(...runs[name].map((r) => r.maxRssKb)) / 1024;
    const mbPerS = (name) => bytes / 1024 / 1024 / (ms(name) / 1000);
    const ratio = ms('memdir') / ms('bare');
    const cpuRatio = cpuMs('memdir') / cpuMs('bare');
    const row = (name) => `${ms(name).toFixed(0)} ms (CPU ${cpuMs(name).toFixed(0)} ms), ${mbPerS(name).toFixed(0)} MB/s, peak ${peakMb(name).toFixed(0)} MB`;
    report(`session notes, ${(bytes / 1024 / 1024).toFixed(0)} MB transcript, ${last.lines} lines (median of ${rounds}, interleaved; peak RSS = max)`, [
      ['bare node: chunked read + JSON.parse', row('bare')],
      ['memdir keepSessionNotes (read, local engine, write)', row('memdir')],
      ['memdir session --from (whole command, start included)', `${ms('command').toFixed(0)} ms`],
      ['memdir / bare', `${ratio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU`],
      ['conversation tokens / notes tokens (budget 6,000)', `${last.conversationTokens} / ${last.notesTokens}`],
      ['lines folded to stay within budget', JSON.stringify(last.folded)],
    ]);
    return { bare: ms('bare'), memdir: ms('memdir'), ratio, cpuRatio, peakMb: peakMb('memdir') };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
