// `memdir refactor` of a generated 5,000-line, 400-section index, of a directory holding one
// 50 MB topic file, and of every fixture directory (the real corpus): wall time and peak memory,
// next to a bare Node process reading the same directory (the floor for any Node tool).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bloatedIndex } from './generators.js';
import { measure, median, report, root } from './lib.js';

/** A topic file of about `megabytes` MB: a pasted log under headings, as the reliability probe made it. */
function hugeTopic(megabytes) {
  const lines = ['---', 'name: Pasted build log', 'description: A build log pasted into memory by accident', 'type: project', '---', ''];
  for (let i = 0, bytes = 0; bytes < megabytes * 1024 * 1024; i++) {
    if (i % 150 === 0) lines.push(`## Build step ${i / 150}`);
    lines.push(`[${String(i).padStart(8, '0')}] compiling module ${i % 997} of the billing service, cache ${i % 2 ? 'hit' : 'miss'}`);
    bytes += lines[lines.length - 1].length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** Refactor of a directory whose one topic file is far over the size cap: it is left alone, so time and memory stay small. */
export function refactorHugeTopic({ megabytes = 50, rounds = 3 } = {}) {
  const text = hugeTopic(megabytes);
  const bare = [];
  const runs = [];
  for (let i = 0; i < rounds; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-huge-'));
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), '# Memory\n\n- [Pasted build log](project_build_log.md) — A build log pasted into memory by accident\n');
    fs.writeFileSync(path.join(dir, 'project_build_log.md'), text);
    try {
      bare.push(measure([path.join(root, 'bench/bare-read.js'), dir]));
      runs.push(measure([path.join(root, 'bin/memdir.cjs'), 'refactor', '--dir', dir, '--quiet']));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const wall = median(runs.map((r) => r.ms));
  const rss = Math.max(...runs.map((r) => r.rss));
  const bareWall = median(bare.map((r) => r.ms));
  const bareRss = Math.max(...bare.map((r) => r.rss));
  report(`refactor of a directory with one ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(0)} MB topic file (median of ${rounds})`, [
    ['bare Node process (startup + read)', `${bareWall.toFixed(0)} ms, ${(bareRss / 1024).toFixed(0)} MB peak`],
    ['memdir refactor (goal < 300 MB peak)', `${wall.toFixed(0)} ms, ${(rss / 1024).toFixed(0)} MB peak (${(wall / bareWall).toFixed(1)}× the time, ${(rss / bareRss).toFixed(1)}× the memory)`],
  ]);
  return { wall, rss };
}

/** Every fixture memory directory: the real corpus (test/fixtures/real, issue 15) and the shared fixtures. */
function fixtureDirs() {
  const real = path.join(root, 'test/fixtures/real');
  const shared = path.join(root, 'test/fixtures/shared/memory');
  const list = (parent, sub = '') =>
    fs.existsSync(parent)
      ? fs
          .readdirSync(parent, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => path.join(parent, e.name, sub))
          .filter((d) => fs.existsSync(d))
      : [];
  return [...list(real), ...list(shared, '.claude/memory')];
}

/** Refactor of every fixture directory, one process each, next to a bare Node process reading each (interleaved). */
export function refactorCorpus({ rounds = 2 } = {}) {
  const dirs = fixtureDirs();
  const totals = [];
  const bareTotals = [];
  for (let i = 0; i < rounds; i++) {
    let total = 0;
    let bareTotal = 0;
    for (const source of dirs) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-corpus-'));
      fs.cpSync(source, dir, { recursive: true });
      try {
        bareTotal += measure([path.join(root, 'bench/bare-read.js'), dir]).ms;
        total += measure([path.join(root, 'bin/memdir.cjs'), 'refactor', '--dir', dir, '--quiet']).ms;
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    totals.push(total);
    bareTotals.push(bareTotal);
  }
  const wall = median(totals);
  const bare = median(bareTotals);
  report(`refactor of all ${dirs.length} fixture directories, one process each (median of ${rounds})`, [
    ['bare Node process per directory (startup + read), total', `${bare.toFixed(0)} ms`],
    ['memdir refactor per directory, total', `${wall.toFixed(0)} ms (${(wall / bare).toFixed(2)}× the bare total, ${(wall / dirs.length).toFixed(0)} ms per directory)`],
  ]);
  return { wall, bare, dirs: dirs.length };
}

export default function refactor(options = {}) {
  const index = refactorIndex(options);
  const huge = refactorHugeTopic();
  const corpus = refactorCorpus();
  return { ...index, huge, corpus };
}

function refactorIndex({ sections = 400, linesPerSection = 12, rounds = 3 } = {}) {
  const text = bloatedIndex(sections, linesPerSection);
  const runs = [];
  const bare = [];
  const writes = [];
  for (let i = 0; i < rounds; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-refactor-'));
    fs.writeFileSync(path.join(dir, 'MEMORY.md'), text);
    try {
      bare.push(measure([path.join(root, 'bench/bare-read.js'), dir]));
      runs.push(measure([path.join(root, 'bin/memdir.cjs'), 'refactor', '--dir', dir, '--quiet']));
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.md')).length;
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bench-write-'));
      writes.push({ ...measure([path.join(root, 'bench/bare-write.js'), scratch, String(files)]), files });
      fs.rmSync(scratch, { recursive: true, force: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const wall = median(runs.map((r) => r.ms));
  const rss = Math.max(...runs.map((r) => r.rss));
  report(`refactor of a ${text.split('\n').length}-line, ${sections}-section index (median of ${rounds})`, [
    ['bare Node process (startup + read)', `${median(bare.map((r) => r.ms)).toFixed(0)} ms, ${(Math.max(...bare.map((r) => r.rss)) / 1024).toFixed(0)} MB peak`],
    [`bare Node process writing ${writes[0].files} files (temp + fsync + rename)`, `${median(writes.map((r) => r.ms)).toFixed(0)} ms`],
    ['memdir refactor (goal < 2 s)', `${wall.toFixed(0)} ms, ${(rss / 1024).toFixed(0)} MB peak`],
  ]);
  return { wall, rss };
}
