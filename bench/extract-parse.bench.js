// Transcript parsing: memdir's streaming reader over a ~100 MB transcript (the shared fixtures
// repeated with fresh uuids) against a bare Node process that reads and JSON.parses the same
// lines, each in its own process, interleaved in one run. Speed is timed inside each process
// (file open to last line) as wall clock and as CPU time (user + system, steadier when other
// work shares the machine); memory is the process's peak RSS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateTranscript } from './extract/generate-transcript.js';
import { report, root, readStats, runChildJson } from './lib.js';

const here = path.join(root, 'bench/extract');

const runChild = (script, args) => runChildJson(path.join(here, script), args);

export default async function extractParse({ megabytes = 100, rounds = 7 } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-extract-'));
  try {
    const reader = path.join(root, 'dist/internal.js');
    const file = path.join(work, 'transcript.jsonl');
    const bytes = generateTranscript(file, megabytes * 1024 * 1024, path.join(root, 'test/fixtures/shared'));
    const runs = { bare: [], readline: [], memdir: [] };
    let counts;
    runChild('bare-parse.js', [file]); // warm the page cache
    for (let i = 0; i < rounds; i++) {
      runs.bare.push(runChild('bare-parse.js', [file]));
      runs.readline.push(runChild('bare-readline.js', [file]));
      counts = runChild('parse-child.js', [file, reader]);
      runs.memdir.push(counts);
    }
    const { ms, peakMb, row, ratio, cpuRatio } = readStats(runs, bytes);
    report(`transcript parse, ${(bytes / 1024 / 1024).toFixed(0)} MB, ${counts.lines} lines (median of ${rounds}, interleaved; peak RSS = max)`, [
      ['bare node: chunked read + JSON.parse', row('bare')],
      ['bare node: readline + JSON.parse', row('readline')],
      ['memdir readTranscript', row('memdir')],
      ['memdir / bare chunked (goal ≤ 1.5×)', `${ratio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU`],
      ['memdir peak memory (goal < 150 MB)', `${peakMb('memdir').toFixed(0)} MB`],
      ['messages / prompts / tool uses / malformed', `${counts.messages} / ${counts.userPrompts} / ${counts.toolUses} / ${counts.malformed}`],
    ]);
    return { bare: ms('bare'), memdir: ms('memdir'), ratio, cpuRatio, peakMb: peakMb('memdir') };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
