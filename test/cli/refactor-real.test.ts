/**
 * Issue 15 acceptance: `memdir refactor` on real memory directories from public repositories.
 *
 * Every directory of test/fixtures/real (see SOURCES.md there; MEMDIR_REAL_CORPUS points elsewhere) and of the
 * shared fixtures is copied to a temp dir and refactored twice. Each property is its own test so a failure
 * names the directory. Words are checked by test/helpers/words-kept.ts, which knows nothing of src/refactor.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';
import { type CliResult, cleanEnv, repoRoot, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree } from '../helpers/temp.js';
import { checkWordsKept, type DirTexts, describeLost, readDirTexts } from '../helpers/words-kept.js';

const INDEX_MAX_LINES = 200;
const INDEX_MAX_CHARS = 25_000;
const TOP_LINE_MAX = 150;
/** Files that are not memories when they carry no frontmatter (issue 14): they need no pointer. */
const NOT_MEMORIES = new Set(['last_session.md', 'readme.md', 'todo.md', 'changelog.md']);

const realCorpus = process.env.MEMDIR_REAL_CORPUS ?? path.join(repoRoot, 'test/fixtures/real');

function corpus(): Array<{ name: string; source: string }> {
  const real = fs.existsSync(realCorpus)
    ? fs
        .readdirSync(realCorpus, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => ({ name: `real/${e.name}`, source: path.join(realCorpus, e.name) }))
    : [];
  const shared = fixtureMemoryDirs().map((source) => ({ name: `shared/${path.basename(path.dirname(path.dirname(source)))}`, source }));
  return [...real, ...shared];
}

const POINTER = /^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/;
const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
const HEADING = /^#{1,6}\s+\S/;
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** A link target as a path relative to the memory directory, or null when it leaves the directory or is not a file link. */
function resolveTarget(fromFile: string, target: string): string | null {
  if (EXTERNAL.test(target) || target.startsWith('#')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(target.split('#')[0]!);
  } catch {
    return null;
  }
  if (path.posix.isAbsolute(decoded)) return null;
  const rel = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), decoded));
  return rel.startsWith('../') || rel === '..' ? null : rel;
}

function indexLines(texts: DirTexts): string[] {
  return (texts['MEMORY.md'] ?? '').replace(/\r?\n$/, '').split(/\r?\n/);
}

function isFilePointer(line: string): boolean {
  const target = line.match(POINTER)?.[1];
  return target !== undefined && !EXTERNAL.test(target);
}

/** Lines of MEMORY.md that are neither a pointer to a file nor a heading, beyond one short line before the first pointer. */
function contentLines(texts: DirTexts): string[] {
  const lines = indexLines(texts).filter((l) => l.trim() !== '');
  const firstPointer = lines.findIndex(isFilePointer);
  const other = lines.map((text, at) => ({ text, at })).filter(({ text }) => !HEADING.test(text) && !isFilePointer(text));
  const lead = other[0];
  const leadAllowed = lead !== undefined && (firstPointer < 0 || lead.at < firstPointer) && lead.text.length <= TOP_LINE_MAX;
  return (leadAllowed ? other.slice(1) : other).map(({ text }) => text);
}

function pointerTargets(texts: DirTexts, file: string): string[] {
  return (texts[file] ?? '')
    .split(/\r?\n/)
    .flatMap((line) => [...line.matchAll(LINK)].map((m) => m[1]!))
    .map((t) => resolveTarget(file, t))
    .filter((t): t is string => t !== null);
}

function isMemory(texts: DirTexts, file: string): boolean {
  if (!file.endsWith('.md') || file === 'MEMORY.md') return false;
  const base = path.posix.basename(file).toLowerCase();
  return !(NOT_MEMORIES.has(base) && !/^\uFEFF?---\r?\n/.test(texts[file]!));
}

/** Topic files not reachable from MEMORY.md through at most two links. */
function unreachable(texts: DirTexts): string[] {
  const hop1 = new Set(pointerTargets(texts, 'MEMORY.md'));
  const hop2 = new Set([...hop1].filter((f) => f.endsWith('.md')).flatMap((f) => pointerTargets(texts, f)));
  return Object.keys(texts).filter((f) => isMemory(texts, f) && !hop1.has(f) && !hop2.has(f));
}

/** Pointers to a file inside the directory that does not exist (links that leave the directory are lint's MEM007, not refactor's). */
function deadPointers(texts: DirTexts): string[] {
  return indexLines(texts).filter((line) => {
    if (!isFilePointer(line)) return false;
    const rel = resolveTarget('MEMORY.md', line.match(POINTER)![1]!);
    return rel !== null && texts[rel] === undefined;
  });
}

const withoutState = (tree: Record<string, string>) => Object.fromEntries(Object.entries(tree).filter(([k]) => k !== '.memdir' && !k.startsWith('.memdir/')));

/** Paths created, removed or rewritten between two snapshots. */
function changedFiles(a: Record<string, string>, b: Record<string, string>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((f) => a[f] !== b[f]).sort();
}

interface Outcome {
  before: DirTexts;
  first: CliResult;
  afterFirst: DirTexts;
  firstTree: Record<string, string>;
  second: CliResult;
  secondTree: Record<string, string>;
}

/** Copy a directory to a temp place, refactor it twice, keep what each step left. */
function refactorTwice(fill: (dir: string) => void): { outcome: () => Outcome; cleanup: () => void } {
  let result: Outcome | undefined;
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-real-')));
  beforeAll(async () => {
    const home = path.join(root, 'home');
    const dir = path.join(root, 'memory');
    fs.mkdirSync(home);
    fill(dir);
    const env = cleanEnv(home);
    const run = () => runMemdir(['refactor', '--dir', dir, '--engine', 'local'], { cwd: root, env, timeoutMs: 120_000 });
    const before = readDirTexts(dir);
    const first = await run();
    const afterFirst = readDirTexts(dir);
    const firstTree = withoutState(snapshotTree(dir));
    const second = await run();
    result = { before, first, afterFirst, firstTree, second, secondTree: withoutState(snapshotTree(dir)) };
  }, 300_000);
  return { outcome: () => result!, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

describe.each(corpus())('memdir refactor on $name', ({ source }) => {
  const { outcome, cleanup } = refactorTwice((dir) => fs.cpSync(source, dir, { recursive: true }));
  afterAll(cleanup);

  test('exits 0', () => {
    const { first } = outcome();
    expect(first.code, first.stderr || first.stdout).toBe(0);
  });

  test('MEMORY.md is at most 200 lines and 25,000 characters', () => {
    const { afterFirst } = outcome();
    expect(indexLines(afterFirst).length).toBeLessThanOrEqual(INDEX_MAX_LINES);
    expect((afterFirst['MEMORY.md'] ?? '').length).toBeLessThanOrEqual(INDEX_MAX_CHARS);
  });

  test('MEMORY.md holds only pointers and headings (and at most a short top line)', () => {
    const content = contentLines(outcome().afterFirst);
    expect(content, content.slice(0, 10).join('\n')).toEqual([]);
  });

  test('no dead pointer in MEMORY.md', () => {
    const dead = deadPointers(outcome().afterFirst);
    expect(dead, dead.slice(0, 10).join('\n')).toEqual([]);
  });

  test('every topic file is reachable from MEMORY.md in at most two hops', () => {
    const missing = unreachable(outcome().afterFirst);
    expect(missing, missing.join('\n')).toEqual([]);
  });

  test('zero words lost', () => {
    const { before, afterFirst } = outcome();
    const { lost } = checkWordsKept(before, afterFirst);
    expect(lost, describeLost(lost)).toEqual([]);
  });

  test('a second run changes no byte', () => {
    const { second, firstTree, secondTree } = outcome();
    expect(second.code, second.stderr || second.stdout).toBe(0);
    const changed = changedFiles(firstTree, secondTree);
    expect(changed, changed.join('\n')).toEqual([]);
  });
});

/** 111 memories whose index has long Korean hooks (the shape of a real directory from issue 15). */
function longHookDirectory(dir: string): string[] {
  const words = '배포 전에 반드시 스테이징 서버에서 통합 테스트를 실행하고 결과를 팀 채널에 공유한다 사용자는 간결한 답변을 선호하며 요약은 생략한다'.split(' ');
  const hook = (n: number) => Array.from({ length: 60 }, (_, i) => words[(n * 7 + i) % words.length]).join(' ');
  const types = ['user', 'feedback', 'project', 'reference'] as const;
  const files: string[] = [];
  const sections = new Map<string, string[]>(types.map((t) => [t, []]));
  for (let n = 1; n <= 111; n++) {
    const type = types[n % types.length]!;
    const file = `${type}_memory_${String(n).padStart(3, '0')}.md`;
    files.push(file);
    const body = `${hook(n)}\n\n**Why:** 기록 ${n}번.\n**How to apply:** 관련 작업마다 확인한다.\n`;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, file), `---\nname: 메모 ${n}\ndescription: ${hook(n).slice(0, 80)}\ntype: ${type}\n---\n\n${body}`);
    sections.get(type)!.push(`- [메모 ${n}](${file}) — ${hook(n)}`, '');
  }
  const index = ['# 메모리 색인', '', ...[...sections].flatMap(([type, lines]) => [`## ${type}`, '', ...lines])].join('\n');
  fs.writeFileSync(path.join(dir, 'MEMORY.md'), `${index}\n`);
  return files;
}

describe('memdir refactor on a directory of 111 memories with long hooks', () => {
  let files: string[] = [];
  const { outcome, cleanup } = refactorTwice((dir) => (files = longHookDirectory(dir)));
  afterAll(cleanup);

  test('the generated index is over the limits before the refactor', () => {
    const { before } = outcome();
    expect(indexLines(before).length).toBeGreaterThan(INDEX_MAX_LINES);
    expect((before['MEMORY.md'] ?? '').length).toBeGreaterThan(INDEX_MAX_CHARS);
  });

  test('exits 0 and keeps all 111 pointers in MEMORY.md, within the limits', () => {
    const { first, afterFirst } = outcome();
    expect(first.code, first.stderr || first.stdout).toBe(0);
    const direct = new Set(pointerTargets(afterFirst, 'MEMORY.md'));
    expect(files.filter((f) => !direct.has(f))).toEqual([]);
    expect(indexLines(afterFirst).length).toBeLessThanOrEqual(INDEX_MAX_LINES);
    expect((afterFirst['MEMORY.md'] ?? '').length).toBeLessThanOrEqual(INDEX_MAX_CHARS);
  });

  test('zero words lost, and a second run changes no byte', () => {
    const { before, afterFirst, second, firstTree, secondTree } = outcome();
    const { lost } = checkWordsKept(before, afterFirst);
    expect(lost, describeLost(lost)).toEqual([]);
    expect(second.code).toBe(0);
    const changed = changedFiles(firstTree, secondTree);
    expect(changed, changed.join('\n')).toEqual([]);
  });
});
