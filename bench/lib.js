// Shared helpers for benchmarks: timing, medians, generated memory directories.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * BENCH_BASE=<another built checkout>: the start-up benchmarks (startup, hooks, extract-hook) also run
 * its bin, interleaved with this one, so a change is measured before and after in one run against
 * the same `node -e ""`.
 */
export const baseBin = process.env.BENCH_BASE ? path.join(path.resolve(process.env.BENCH_BASE), 'bin/memdir.cjs') : undefined;

/** The report rows of the BENCH_BASE checkout: `[label, ms]` pairs, each with its ratio to `node`. */
export function baseRows(rows, node) {
  return baseBin ? [[`BENCH_BASE ${process.env.BENCH_BASE}`, ''], ...rows.map(([label, ms]) => [`  ${label}`, `${ms.toFixed(1)} ms (${(ms / node).toFixed(2)}×)`])] : [];
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Time a synchronous function, in ms. */
export function time(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * The one environment for a Node subject and its Node peer (`node -e ""`): both sides must get
 * the same, as a variable such as NODE_EXTRA_CA_CERTS alone adds 40–140 ms to every Node start
 * here. Minimal by default; `BENCH_NODE_ENV=inherit` runs both sides in this shell's environment
 * instead (to report the ratios both ways). `environmentLabel` names the choice in reports.
 */
export function benchEnv(extra = {}) {
  const base = process.env.BENCH_NODE_ENV === 'inherit' ? process.env : { PATH: process.env.PATH, HOME: os.homedir() };
  return { ...base, NO_COLOR: '1', ...extra };
}
/**
 * The environment of a hook as Claude Code runs it: `benchEnv` plus CLAUDE_PROJECT_DIR, which it
 * sets for every hook.
 */
export function hookEnv(projectDir) {
  return benchEnv({ CLAUDE_PROJECT_DIR: projectDir });
}
export const environmentLabel =
  process.env.BENCH_NODE_ENV === 'inherit' ? `inherited environment${process.env.NODE_EXTRA_CA_CERTS ? ', with NODE_EXTRA_CA_CERTS' : ''}` : 'minimal environment (PATH, HOME)';

/** `node -e ""` in `env`: the peer every start-up ratio divides by. */
export function timeBareNode(env) {
  return timeCommand(process.execPath, ['-e', ''], { stdio: ['pipe', 'pipe', 'pipe'], env, input: '' });
}

/** Time one run of a command, in ms (wall clock, includes process startup). Other exit codes throw. */
export function timeCommand(command, args, options = {}, okStatus = [0]) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!okStatus.includes(result.status)) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/**
 * Run candidates interleaved (A B A B …) so machine noise hits them alike;
 * returns the median per candidate.
 */
export function compare(candidates, rounds) {
  const samples = Object.fromEntries(Object.keys(candidates).map((k) => [k, []]));
  for (let i = 0; i < rounds; i++) for (const [name, run] of Object.entries(candidates)) samples[name].push(run());
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

/**
 * Like `compare`, but each round starts one candidate later: whichever runs first after another
 * subject pays for the switch, so no candidate always does.
 */
export function compareRotated(candidates, rounds) {
  const entries = Object.entries(candidates);
  const samples = Object.fromEntries(entries.map(([name]) => [name, []]));
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < entries.length; k++) {
      const [name, run] = entries[(i + k) % entries.length];
      samples[name].push(run());
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

const words =
  'deploy release freeze billing pricing latency dashboard review terse summary grafana linear incident migration schema mobile branch merge cache queue retry owner growth experiment'.split(' ');
const types = ['user', 'feedback', 'project', 'reference'];

function pick(n, i) {
  return words[(i * 7 + n * 13) % words.length];
}

/** A memory directory of `count` topic files (with an index of pointers), in a temp folder. */
export function generateMemoryDir(count, { prefix = 'memdir-bench-' } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const index = [];
  for (let i = 0; i < count; i++) {
    const type = types[i % types.length];
    const name = `${pick(1, i)} ${pick(2, i)} ${i}`;
    const file = `${type}_${name.replace(/\W+/g, '_')}.md`;
    const body = Array.from({ length: 12 }, (_, l) => `${pick(l, i)} ${pick(l + 3, i)} notes about ${pick(l + 5, i)} line ${l}.`).join('\n');
    const description = `${pick(4, i)} and ${pick(5, i)} decision for the ${pick(6, i)} work (${i})`;
    fs.writeFileSync(path.join(dir, file), `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n\n**Why:** ${pick(7, i)}.\n**How to apply:** ${pick(8, i)}.\n`);
    index.push(`- [${name}](${file}) — ${description}`);
  }
  fs.writeFileSync(path.join(dir, 'MEMORY.md'), `${index.join('\n')}\n`);
  return dir;
}

/**
 * `count` real topic files: the vendored real memory directories' topic files (test/fixtures/real,
 * openly licensed, mostly non-ASCII text) copied round-robin under unique names, with an index.
 * The generated directory is plain ASCII with a small vocabulary; real memories cost more to read.
 */
export function realMemoryDir(count, { prefix = 'memdir-bench-real-' } = {}) {
  const sources = fs
    .readdirSync(path.join(root, 'test/fixtures/real'), { recursive: true, encoding: 'utf8' })
    .filter((rel) => rel.endsWith('.md') && path.basename(rel) !== 'MEMORY.md')
    .sort()
    .map((rel) => path.join(root, 'test/fixtures/real', rel));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const index = [];
  for (let i = 0; i < count; i++) {
    const file = `copy${Math.floor(i / sources.length)}_${i % sources.length}_${path.basename(sources[i % sources.length])}`;
    fs.copyFileSync(sources[i % sources.length], path.join(dir, file));
    index.push(`- [${file}](${file})`);
  }
  fs.writeFileSync(path.join(dir, 'MEMORY.md'), `${index.join('\n')}\n`);
  return dir;
}

/** The honest baseline: list the same files and read each one whole. */
export function bareReadLoop(dir) {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.md')) bytes += fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8').length;
  }
  return bytes;
}

/** Run a node script and read the JSON it prints; a failed run throws with its stderr. */
export function runChildJson(script, args) {
  const result = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${script} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/**
 * Medians of timed reads of a `bytes`-long input, per named series of runs (`{ ms, cpuMs, maxRssKb }`
 * each): wall and CPU time, peak memory (the max), throughput, a report row, and memdir's ratios to bare.
 */
export function readStats(runs, bytes) {
  const ms = (name) => median(runs[name].map((r) => r.ms));
  const cpuMs = (name) => median(runs[name].map((r) => r.cpuMs));
  const peakMb = (name) => Math.max(...runs[name].map((r) => r.maxRssKb)) / 1024;
  const mbPerS = (name) => bytes / 1024 / 1024 / (ms(name) / 1000);
  const row = (name) => `${ms(name).toFixed(0)} ms (CPU ${cpuMs(name).toFixed(0)} ms), ${mbPerS(name).toFixed(0)} MB/s, peak ${peakMb(name).toFixed(0)} MB`;
  return { ms, cpuMs, peakMb, row, ratio: ms('memdir') / ms('bare'), cpuRatio: cpuMs('memdir') / cpuMs('bare') };
}

export function report(title, rows) {
  console.log(`\n${title}`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(44)} ${value}`);
}

/** The honest baseline for `lint --fix` of an index: drop each pointer whose file is missing, write it back safely. */
export function bareFixIndex(dir) {
  const index = path.join(dir, 'MEMORY.md');
  const kept = fs
    .readFileSync(index, 'utf8')
    .split('\n')
    .filter((line) => {
      const target = /\]\(([^)]+)\)/.exec(line)?.[1];
      return !target || fs.existsSync(path.join(dir, decodeURI(target)));
    });
  const temp = path.join(dir, '.tmp-MEMORY.md');
  const fd = fs.openSync(temp, 'w');
  fs.writeFileSync(fd, kept.join('\n'));
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(temp, index);
}

/** Wall ms and peak RSS (KB, from GNU time when present) of one process. */
export function measure(args, { env = {}, cwd } = {}) {
  const gnuTime = fs.existsSync('/usr/bin/time');
  const command = gnuTime ? '/usr/bin/time' : process.execPath;
  const argv = gnuTime ? ['-f', '%M', process.execPath, ...args] : args;
  const start = process.hrtime.bigint();
  const result = spawnSync(command, argv, { encoding: 'utf8', cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const rss = gnuTime ? Number(result.stderr.trim().split('\n').pop()) : NaN;
  return { ms, rss };
}
