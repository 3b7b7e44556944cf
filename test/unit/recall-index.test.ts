import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DOCUMENT_VERSION } from '../../src/recall/document.js';
import { readRecallIndex, recallIndexPath, writeRecallIndex } from '../../src/recall/index-file.js';
import { loadCorpus, loadDocs } from '../../src/recall/load.js';
import { RecallIndex } from '../../src/recall/rank.js';
import { recall } from '../../src/recall/recall.js';
import { loadDirectories } from '../../src/store/dir-reader.js';
import { statMarkdownFiles } from '../../src/store/stat-walk.js';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const topic = (name: string, body = 'Some notes.') => `---\nname: ${name}\ndescription: about ${name}\ntype: project\n---\n\n${body}\n`;

function memoryDir(): string {
  const dir = tempDir();
  writeTree(dir, {
    'MEMORY.md': '- [a](a.md)\n',
    'a.md': topic('alpha'),
    'b.md': topic('bravo'),
    'c.md': topic('carol'),
  });
  return dir;
}

/** Renames every cached document to CACHED (its name's terms): a document read from its file again has its real name. */
function markCached(dir: string): void {
  const entries = readRecallIndex(dir);
  for (const entry of entries.values()) if (entry.doc) entry.doc.terms.name = 'CACHED';
  expect(writeRecallIndex(dir, entries)).toBe(true);
}

/** A directory indexed with `rel` at SOME_TIME (a whole millisecond, so it can be put back exactly), every document marked cached. */
function indexedWithFixedTime(rel: string): { dir: string; file: string } {
  const dir = memoryDir();
  const file = path.join(dir, rel);
  fs.utimesSync(file, SOME_TIME, SOME_TIME);
  names(dir);
  markCached(dir);
  return { dir, file };
}

const names = (dir: string) => Object.fromEntries(loadDocs(dir, { persist: true }).map((d) => [d.path, d.terms.name]));
const DAY = 86_400_000;
const SOME_TIME = new Date('2026-06-01T10:00:00.000Z');

describe('recall index: invalidation', () => {
  test('a warm load reads no file and does not rewrite the index', () => {
    const dir = memoryDir();
    expect(names(dir)).toEqual({ 'a.md': 'alpha', 'b.md': 'bravo', 'c.md': 'carol' });
    markCached(dir);
    const before = fs.readFileSync(recallIndexPath(dir), 'utf8');
    expect(names(dir)).toEqual({ 'a.md': 'CACHED', 'b.md': 'CACHED', 'c.md': 'CACHED' });
    expect(fs.readFileSync(recallIndexPath(dir), 'utf8')).toBe(before);
  });

  test('cached documents are the ones documentFor gives', () => {
    const dir = memoryDir();
    const fresh = loadDocs(dir);
    loadDocs(dir, { persist: true });
    expect(loadDocs(dir, { persist: true })).toEqual(fresh);
  });

  test('the index file is ASCII, and non-ASCII terms (accents, CJK, emoji) come back from it unchanged', () => {
    const dir = memoryDir();
    writeTree(dir, { 'd.md': topic('café déjà vu', '合并冻结期间不要合并移动端分支 naïve 🚀 Ŝtraße') });
    const fresh = loadDocs(dir);
    expect(fresh.find((d) => d.path === 'd.md')!.terms.body).toMatch(/合并.*naïv ŝtraße/);
    loadDocs(dir, { persist: true });
    expect([...fs.readFileSync(recallIndexPath(dir))].every((byte) => byte < 0x80)).toBe(true);
    expect(loadDocs(dir, { persist: true })).toEqual(fresh);
  });

  test('an edit of the same size with the old mtime put back is read again', () => {
    const { dir, file } = indexedWithFixedTime('b.md');
    fs.writeFileSync(file, topic('brav0'));
    fs.utimesSync(file, SOME_TIME, SOME_TIME);
    expect(fs.statSync(file).mtimeMs).toBe(SOME_TIME.getTime());
    expect(names(dir)).toEqual({ 'a.md': 'CACHED', 'b.md': 'brav0', 'c.md': 'CACHED' });
  });

  test('added, deleted and renamed files', () => {
    const dir = memoryDir();
    names(dir);
    markCached(dir);
    fs.writeFileSync(path.join(dir, 'd.md'), topic('delta'));
    fs.rmSync(path.join(dir, 'a.md'));
    fs.renameSync(path.join(dir, 'b.md'), path.join(dir, 'bb.md'));
    expect(names(dir)).toEqual({ 'bb.md': 'bravo', 'c.md': 'CACHED', 'd.md': 'delta' });
    expect([...readRecallIndex(dir).keys()]).toEqual(['bb.md', 'c.md', 'd.md']);
  });

  test('clock skew: an mtime that goes backwards or into the future is a change', () => {
    const dir = memoryDir();
    names(dir);
    markCached(dir);
    const past = new Date(Date.now() - 400 * DAY);
    const future = new Date(Date.now() + 30 * DAY);
    fs.utimesSync(path.join(dir, 'a.md'), past, past);
    fs.utimesSync(path.join(dir, 'b.md'), future, future);
    const docs = loadDocs(dir, { persist: true });
    expect(docs.map((d) => d.terms.name)).toEqual(['alpha', 'bravo', 'CACHED']);
    expect(docs[0]!.mtimeMs).toBeCloseTo(past.getTime(), -1);
  });

  test('same size and mtime but another inode (a file replaced by rename) is read again', () => {
    const { dir, file } = indexedWithFixedTime('c.md');
    const { ino, size } = fs.statSync(file);
    const replacement = path.join(dir, 'c.tmp');
    fs.writeFileSync(replacement, topic('karol'));
    fs.utimesSync(replacement, SOME_TIME, SOME_TIME);
    fs.renameSync(replacement, file);
    expect(fs.statSync(file)).toMatchObject({ size, mtimeMs: SOME_TIME.getTime() });
    expect(fs.statSync(file).ino).not.toBe(ino);
    expect(names(dir)['c.md']).toBe('karol');
  });

  test('a file recall cannot read is remembered as such, and read again once it changes', () => {
    const dir = memoryDir();
    fs.writeFileSync(path.join(dir, 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(Object.keys(names(dir))).toEqual(['a.md', 'b.md', 'c.md']);
    expect(readRecallIndex(dir).get('latin1.md')?.doc).toBeNull();
    fs.writeFileSync(path.join(dir, 'latin1.md'), topic('café'));
    expect(names(dir)['latin1.md']).toBe('café');
  });
});

describe('recall index: never trusted blindly, never fatal', () => {
  const indexText = (dir: string) => fs.readFileSync(recallIndexPath(dir), 'utf8');
  const header = (dir: string) => JSON.parse(indexText(dir).split('\n')[0]!);

  test.each([
    ['not JSON', () => 'garbage{\n'],
    ['cut in half', (text: string) => text.slice(0, text.length >> 1)],
    ['cut at a line', (text: string) => text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1)],
    ['lengthened', (text: string) => `${text}{"t":"alpha","p":[0,9,9,9]}\n`],
    ['empty', () => ''],
    ['another document version', (text: string) => text.replace(`"documentVersion":${DOCUMENT_VERSION}`, `"documentVersion":${DOCUMENT_VERSION + 1}`)],
    ['another format', (text: string) => text.replace(/"format":\d+/, '"format":99')],
    ['an earlier format', (text: string) => text.replace(/"format":\d+/, '"format":1')],
    ['a malformed file entry', (text: string) => text.replace('["a.md",', '["a.md","x",')],
    ['a file entry of the wrong type', (text: string) => text.replace(/"types":\["\w*"/, '"types":[7')],
    ['a field length that is not a count', (text: string) => text.replace(/("numbers":\[(?:[\d.]+,){5})\d+/, '$1-3')],
  ])('an index that is %s is rebuilt from the files', (_label, corrupt) => {
    const dir = memoryDir();
    names(dir);
    markCached(dir);
    fs.writeFileSync(recallIndexPath(dir), corrupt(indexText(dir)));
    expect(names(dir)).toEqual({ 'a.md': 'alpha', 'b.md': 'bravo', 'c.md': 'carol' });
    expect(header(dir).documentVersion).toBe(DOCUMENT_VERSION);
    expect(readRecallIndex(dir).size).toBe(3);
  });

  test('the JSON index of earlier versions is removed when this one is written', () => {
    const dir = memoryDir();
    fs.mkdirSync(path.join(dir, '.memdir'));
    fs.writeFileSync(path.join(dir, '.memdir/recall-index.json'), '{"format":3}');
    names(dir);
    expect(fs.readdirSync(path.join(dir, '.memdir'))).not.toContain('recall-index.json');
  });

  test('damaged terms of one file, found when they are read: that file is read again and the index rewritten', () => {
    const dir = memoryDir();
    names(dir);
    markCached(dir);
    // Same length, so the file still looks whole: only reading the line finds the damage.
    fs.writeFileSync(recallIndexPath(dir), indexText(dir).replace('["CACHED","bravo",', '[12345678,"bravo",'));
    expect(readRecallIndex(dir).get('b.md')).toBeUndefined();
    expect(names(dir)).toEqual({ 'a.md': 'alpha', 'b.md': 'bravo', 'c.md': 'carol' });
    expect(readRecallIndex(dir).get('b.md')?.doc?.terms.name).toBe('bravo');
  });

  test('recall says whether the stored index was up to date (the prompt hook caches its code provisionally when not)', async () => {
    const dir = memoryDir();
    const ask = () => recall({ dir, query: 'what do we know about bravo?', engine: 'local', semantic: false });
    expect((await ask()).indexCurrent).toBe(false);
    expect((await ask()).indexCurrent).toBe(true);
    fs.writeFileSync(path.join(dir, 'd.md'), topic('delta'));
    expect((await ask()).indexCurrent).toBe(false);
  });

  test('damaged postings, found while ranking: recall ranks what the files say and rewrites the index', async () => {
    const dir = memoryDir();
    const question = 'what do we know about bravo?';
    const expected = await recall({ dir, query: question, engine: 'local', semantic: false });
    expect(expected.memories[0]?.path).toBe('b.md');
    const damaged = indexText(dir).replace('{"t":"bravo","p":[', '{"t":"bravo","p":{');
    expect(damaged).not.toBe(indexText(dir));
    fs.writeFileSync(recallIndexPath(dir), damaged);
    expect(await recall({ dir, query: question, engine: 'local', semantic: false })).toEqual(expected);
    expect(indexText(dir)).toContain('{"t":"bravo","p":[');
  });

  test('a directory that cannot take the index is read without one', () => {
    const dir = memoryDir();
    fs.writeFileSync(path.join(dir, '.memdir'), 'a file where the state folder would go');
    expect(names(dir)).toEqual({ 'a.md': 'alpha', 'b.md': 'bravo', 'c.md': 'carol' });
    expect(fs.readFileSync(path.join(dir, '.memdir'), 'utf8')).toBe('a file where the state folder would go');
  });

  test('without persist nothing is written', () => {
    const dir = memoryDir();
    loadDocs(dir);
    expect(fs.existsSync(path.join(dir, '.memdir'))).toBe(false);
  });
});

describe('the index walk lists what the directory reader reads', () => {
  /** The .md files loadDirectories reads or leaves alone, with their nested prefix. */
  const readerFiles = (dir: string) =>
    loadDirectories(dir, { pattern: '**/*.md', prefixOfLarge: true })
      .flatMap(({ prefix, raw }) => [...raw.files.keys(), ...raw.unreadable.map((u) => u.path)].map((rel) => prefix + rel))
      .sort();
  const walkFiles = (dir: string) => statMarkdownFiles(dir).map((f) => f.path);

  test('hidden folders and files, node_modules, .memdir, nested team/, symlinks in and out', () => {
    const outside = tempDir();
    writeTree(outside, { 'secret.md': topic('secret'), 'folder/x.md': topic('x') });
    const dir = memoryDir();
    writeTree(dir, {
      '.hidden/h.md': topic('h'),
      '.dot.md': topic('dot'),
      'node_modules/pkg/readme.md': '# pkg\n',
      '.memdir/state.md': 'state',
      'notes.txt': 'not markdown',
      'team/MEMORY.md': '- [t](t.md)\n',
      'team/t.md': topic('team one'),
      'team/deep/u.md': topic('team two'),
      'team/node_modules/v.md': topic('vendored'),
      'sub/s.md': topic('sub'),
      'UPPER.MD': topic('upper'),
    });
    fs.symlinkSync(path.join(dir, 'a.md'), path.join(dir, 'link-in.md'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(dir, 'link-out.md'));
    fs.symlinkSync(path.join(outside, 'folder'), path.join(dir, 'linked-folder'));
    fs.symlinkSync(path.join(dir, 'sub'), path.join(dir, 'folder-link.md'));
    fs.symlinkSync(path.join(dir, 'missing.md'), path.join(dir, 'dangling.md'));
    expect(walkFiles(dir)).toEqual(readerFiles(dir));
    expect(walkFiles(dir)).toEqual(['MEMORY.md', 'a.md', 'b.md', 'c.md', 'link-in.md', 'sub/s.md', 'team/MEMORY.md', 'team/deep/u.md', 'team/t.md']);
  });

  test.each(fixtureMemoryDirs().map((dir) => [path.basename(path.dirname(path.dirname(dir))), dir]))('real directory %s', (_name, dir) => {
    expect(walkFiles(dir)).toEqual(readerFiles(dir));
  });
});

describe('ranking from the stored postings', () => {
  /** A few queries from a directory's own words: a memory's description, its first words, and two of them across memories. */
  const queriesFor = (docs: { terms: { description: string; body: string } }[]) =>
    docs
      .slice(0, 8)
      .flatMap((doc, i) => [
        doc.terms.description,
        doc.terms.body.split(' ').slice(0, 4).join(' '),
        `${doc.terms.description.split(' ')[0] ?? ''} ${docs[(i + 3) % docs.length]!.terms.body.split(' ')[2] ?? ''}`,
      ]);

  const withTopics = fixtureMemoryDirs().filter((dir) => fs.readdirSync(dir).some((name) => name.endsWith('.md') && name !== 'MEMORY.md'));
  test.each(withTopics.map((dir) => [path.basename(path.dirname(path.dirname(dir))), dir]))('%s: the same rankings as counting the files, with and without memories left out', (_name, fixture) => {
    const dir = tempDir();
    fs.cpSync(fixture, dir, { recursive: true });
    const fresh = loadDocs(dir);
    loadDocs(dir, { persist: true });
    const corpus = loadCorpus(dir, { persist: true });
    expect(corpus.postings).toBeDefined();
    const shown = (ranking: ReturnType<RecallIndex['rank']>) => [ranking.ranked.map((r) => [r.doc.path, r.score]), ranking.coverage, ranking.confident];
    for (const skip of [new Set<string>(), new Set(fresh.filter((_, i) => i % 3 === 0).map((d) => d.path))]) {
      const counted = new RecallIndex(fresh.filter((d) => !skip.has(d.path)));
      const stored = new RecallIndex(
        corpus.docs.filter((d) => !skip.has(d.path)),
        corpus.postings,
      );
      for (const query of queriesFor(fresh)) for (const abstain of [false, true]) expect(shown(stored.rank(query, { abstain, nowMs: 0 }))).toEqual(shown(counted.rank(query, { abstain, nowMs: 0 })));
    }
  });
});
