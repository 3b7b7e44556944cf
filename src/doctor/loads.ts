import fs from 'node:fs';
import path from 'node:path';
import { doctorText as text, type Finding } from '../core/doctor-findings.js';
import { indexTextAsLoaded, loadIndex, utf16IndexEncoding, type ClaudeCodeRelease, type LoadedIndex } from '../core/load-model.js';
import { classifyPointerTarget } from '../core/memory-index.js';
import { INDEX_FILE, STATE_DIR } from '../core/taxonomy.js';
import { isAlive } from '../store/lock.js';

const TEAM_DIR = 'team';
const CONSOLIDATE_LOCK = '.consolidate-lock';
/** Files walked in a memory directory; a directory past this is reported on what was seen. */
const MAX_FILES = 5000;
/** Bytes read of one file while following links, and of a lock. */
const MAX_READ = 256 * 1024;
const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

/** What Claude Code loads from the directory, what it cuts, what no pointer reaches; locks and journals left behind. */
export function loadFindings(dir: string, release: ClaudeCodeRelease = 'latest'): Finding[] {
  if (!fs.existsSync(dir)) return [];
  const findings: Finding[] = [];
  const topics = topicFiles(dir, '');
  const privateTopics = topics.filter((file) => !file.startsWith(`${TEAM_DIR}/`));
  const index = readIndex(path.join(dir, INDEX_FILE), findings);
  if (index === undefined) {
    if (privateTopics.length > 0) {
      findings.push({ id: 'index-missing', severity: 'warning', message: text.indexMissing(dir, privateTopics.length), evidence: { dir, topics: privateTopics.length }, fix: text.fixIndexMissing() });
    }
  } else {
    const loaded = loadIndex(index, release);
    findings.push(loadedFinding('index-loaded', loaded, text.indexLoaded(loaded.loadedLines, loaded.loaded.length), path.join(dir, INDEX_FILE), release));
    if (loaded.firstCutLine !== undefined) {
      const notLoaded = loaded.lineCount - loaded.loadedLines + (loaded.cutBy === 'size' ? 1 : 0);
      findings.push({
        id: 'index-cut',
        severity: 'warning',
        message: text.indexCut(loaded.firstCutLine, notLoaded, loaded.cutBy === 'size' ? '25,000-character' : '200-line'),
        evidence: { file: path.join(dir, INDEX_FILE), firstCutLine: loaded.firstCutLine, cutBy: loaded.cutBy, lines: loaded.lineCount },
        fix: text.fixIndexCut(),
      });
    }
    const reached = reachable(dir, '', loaded.loaded);
    const unreached = privateTopics.filter((file) => !reached.has(file));
    if (unreached.length > 0) {
      findings.push({ id: 'unreachable-topic', severity: 'warning', message: text.unreachable(unreached.length), evidence: { dir, files: unreached }, fix: text.fixUnreachable() });
    }
  }
  findings.push(...teamFindings(dir, topics, release));
  findings.push(...lockFindings(dir));
  return findings;
}

function loadedFinding(id: string, loaded: LoadedIndex, message: string, file: string, release: ClaudeCodeRelease): Finding {
  return { id, severity: 'info', message, evidence: { file, lines: loaded.loadedLines, characters: loaded.loaded.length, cut: loaded.firstCutLine !== undefined, loadModel: release }, fix: null };
}

function teamFindings(dir: string, topics: string[], release: ClaudeCodeRelease): Finding[] {
  const teamDir = path.join(dir, TEAM_DIR);
  if (!fs.existsSync(teamDir)) return [];
  const teamTopics = topics.filter((file) => file.startsWith(`${TEAM_DIR}/`));
  const findings: Finding[] = [];
  const index = readIndex(path.join(teamDir, INDEX_FILE), findings);
  if (index === undefined) {
    return teamTopics.length === 0
      ? []
      : [{ id: 'team-index', severity: 'warning', message: text.teamNoIndex(teamTopics.length), evidence: { dir: teamDir, topics: teamTopics.length }, fix: text.fixTeam() }];
  }
  const loaded = loadIndex(index, release);
  findings.push(loadedFinding('team-index', loaded, text.teamIndex(loaded.loadedLines, loaded.loaded.length), path.join(teamDir, INDEX_FILE), release));
  if (loaded.firstCutLine !== undefined) {
    findings.push({
      id: 'team-index-cut',
      severity: 'warning',
      message: text.teamIndexCut(loaded.firstCutLine),
      evidence: { file: path.join(teamDir, INDEX_FILE), firstCutLine: loaded.firstCutLine, cutBy: loaded.cutBy },
      fix: text.fixIndexCut(),
    });
  }
  return findings;
}

/** Locks whose holder is gone, and journals of transactions that did not finish. */
function lockFindings(dir: string): Finding[] {
  const findings: Finding[] = [];
  const state = path.join(dir, STATE_DIR);
  for (const file of stateFiles(state)) {
    const name = path.relative(state, file);
    if (name === 'lock' || name.endsWith('.lock')) {
      const pid = lockPid(file, true);
      if (pid !== undefined && !isAlive(pid)) findings.push({ id: 'stale-lock', severity: 'warning', message: text.staleLock(file, pid), evidence: { file, pid }, fix: text.fixStaleLock() });
    } else if (name === 'journal.json') {
      findings.push({ id: 'interrupted-journal', severity: 'warning', message: text.interruptedJournal(file), evidence: { file }, fix: text.fixInterruptedJournal() });
    } else if (name === 'journal.failed.json') {
      findings.push({ id: 'failed-journal', severity: 'error', message: text.failedJournal(file), evidence: { file }, fix: text.fixFailedJournal(file) });
    }
  }
  const consolidate = path.join(dir, CONSOLIDATE_LOCK);
  const pid = lockPid(consolidate, false);
  if (pid !== undefined && !isAlive(pid)) {
    findings.push({
      id: 'stale-consolidate-lock',
      severity: 'warning',
      message: text.staleConsolidateLock(consolidate, pid),
      evidence: { file: consolidate, pid },
      fix: text.fixStaleConsolidateLock(),
    });
  }
  return findings;
}

/** Files of memdir's state folder, one level of subfolders deep; never through a link. */
function stateFiles(state: string): string[] {
  const files: string[] = [];
  for (const entry of readDir(state)) {
    const full = path.join(state, entry.name);
    if (entry.isFile()) files.push(full);
    else if (entry.isDirectory()) for (const inner of readDir(full)) if (inner.isFile()) files.push(path.join(full, inner.name));
  }
  return files.sort();
}

/** The PID a lock names: memdir's are JSON (`{"pid": …}`), Claude Code's consolidate lock is the bare number. */
function lockPid(file: string, json: boolean): number | undefined {
  const body = readText(file)?.trim();
  if (!body) return undefined;
  let pid: unknown = Number(body);
  if (json) {
    try {
      pid = (JSON.parse(body) as { pid?: unknown }).pid;
    } catch {
      return undefined;
    }
  }
  return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Topic files (`*.md` but the indexes), relative with `/`, outside memdir's state and hidden folders. */
function topicFiles(dir: string, prefix: string, found: string[] = []): string[] {
  for (const entry of readDir(path.join(dir, prefix))) {
    if (found.length >= MAX_FILES) break;
    if (entry.name.startsWith('.')) continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) topicFiles(dir, rel, found);
    else if (entry.isFile() && entry.name.endsWith('.md') && entry.name !== INDEX_FILE) found.push(rel);
  }
  return found.sort();
}

/** Files reached from the loaded index: its pointers, and links of the files they reach (a second index level). */
function reachable(dir: string, base: string, loadedText: string): Set<string> {
  const seen = new Set<string>();
  const queue = linksIn(loadedText, base);
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const body = readText(path.join(dir, file));
    if (body !== undefined) queue.push(...linksIn(body, path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file)));
  }
  return seen;
}

function linksIn(body: string, base: string): string[] {
  const found: string[] = [];
  for (const match of body.matchAll(LINK)) {
    const target = classifyPointerTarget(base ? `${base}/${match[1]}` : match[1]!);
    if (target.kind === 'file' && target.path.endsWith('.md')) found.push(target.path);
  }
  return found;
}

function readDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** A file's first `maxBytes` as UTF-8, as Claude Code reads it; missing or unreadable: undefined. */
/**
 * An index as Claude Code reads it: its bytes as UTF-8 (the shared load model), whatever it holds; a
 * UTF-16 one (byte-order mark) is a finding, since the agent gets mojibake.
 */
function readIndex(file: string, findings: Finding[]): string | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const utf16 = utf16IndexEncoding(bytes);
  if (utf16) findings.push({ id: 'index-encoding', severity: 'warning', message: text.indexEncoding(file, utf16), evidence: { file, encoding: utf16 }, fix: text.fixIndexEncoding(file) });
  return indexTextAsLoaded(bytes);
}

export function readText(file: string, maxBytes = MAX_READ): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, fs.fstatSync(fd).size));
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, read);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
