import fs from 'node:fs';
import path from 'node:path';
import { sanitizeProjectPath } from '../core/paths.js';
import { STATE_DIR } from '../core/taxonomy.js';
import { writeStateFile } from '../store/atomic.js';
import { makeStateDir, settleDirectory } from '../store/lock.js';
import { memoryProjectRoot } from '../store/git-root.js';
import { configHome, homeDir } from '../store/settings.js';
import { lastConsolidation } from './consolidate-lock.js';
import { sessionFileName, sessionsWithNotesSince } from '../store/session-notes.js';
import { lazyRequire } from '../core/lazy.js';

/**
 * When dream is due (docs/architecture.md#dream-pipeline): at least `minHours` since the last
 * consolidation and at least `minSessions` sessions since then — transcripts
 * in the project's Claude Code folders (the canonical root's and each linked
 * worktree's) touched after it, subagent files and the current session not
 * counted. Counting lists folders and runs git, so a count is reused for 10
 * minutes (state in .memdir/dream-gate.json); the hours are checked first and
 * cost one stat.
 */
export const SCAN_INTERVAL_MS = 10 * 60 * 1000;
const GATE_STATE = 'dream-gate.json';

export interface GateOptions {
  minHours: number;
  minSessions: number;
  now: Date;
  /** Where the agent runs: its git repository names the transcript folders. */
  projectRoot: string | undefined;
  /** The session ending now (its transcript is not counted). */
  sessionId?: string | undefined;
  env?: NodeJS.ProcessEnv;
}

export interface GateState {
  due: boolean;
  reason: string;
  lastConsolidation: string | null;
  hoursSince: number | null;
  sessionsSince: number | null;
  /** Whether the session count came from the throttled cache. */
  cached: boolean;
  minHours: number;
  minSessions: number;
}

interface ScanRecord {
  scannedAt: number;
  since: number;
  sessions: number;
  sessionId: string | null;
}

/**
 * The gate's answer when no scan is needed: not due by the hours (one stat), or
 * decided by a session count under 10 minutes old about the same consolidation.
 * Undefined when the transcripts must be counted. The SessionEnd hook's fast path
 * (src/dream/hook.ts) stops here without loading the CLI.
 */
export function gateWithoutScan(dir: string, options: GateOptions): GateState | undefined {
  const { last, notDue, verdict } = hoursGate(dir, options);
  if (notDue) return notDue;
  const record = readRecord(path.join(dir, STATE_DIR, GATE_STATE));
  const at = options.now.getTime();
  const fresh = record && record.since === (last?.getTime() ?? 0) && record.sessionId === (options.sessionId ?? null) && at - record.scannedAt >= 0 && at - record.scannedAt < SCAN_INTERVAL_MS;
  return fresh ? verdict(record.sessions, true) : undefined;
}

/** Not due by the hours since the last consolidation alone (one stat; no session count, no session id). */
export function notDueByHours(dir: string, options: GateOptions): boolean {
  return hoursGate(dir, options).notDue !== undefined;
}

export async function checkGate(dir: string, options: GateOptions): Promise<GateState> {
  // A run killed after its commit point has applied once rolled forward, and its time then counts.
  await settleDirectory(dir);
  const known = gateWithoutScan(dir, options);
  if (known) return known;
  const { last, verdict } = hoursGate(dir, options);
  return verdict(await countSessions(dir, last?.getTime() ?? 0, options), false);
}

/** The hours since the last consolidation (one stat): a not-due answer when too few, else how to judge a session count. */
function hoursGate(dir: string, options: GateOptions) {
  const last = lastConsolidation(dir, options.now);
  const hoursSince = last ? (options.now.getTime() - last.getTime()) / 3_600_000 : null;
  const base = { lastConsolidation: last?.toISOString() ?? null, hoursSince, minHours: options.minHours, minSessions: options.minSessions };
  const notDue: GateState | undefined =
    hoursSince !== null && hoursSince < options.minHours
      ? { ...base, due: false, reason: `${hoursSince.toFixed(1)} h since the last consolidation, under ${options.minHours} h`, sessionsSince: null, cached: false }
      : undefined;
  const verdict = (sessions: number, cached: boolean): GateState => {
    const due = sessions >= options.minSessions;
    const when = hoursSince === null ? 'never consolidated' : `${hoursSince.toFixed(1)} h since the last consolidation`;
    const reason = due ? `${when}, ${sessions} session(s) since` : `${sessions} session(s) since the last consolidation, under ${options.minSessions}`;
    return { ...base, due, reason, sessionsSince: sessions, cached };
  };
  return { last, notDue, verdict };
}

/**
 * Count the sessions since `since` and remember the count for the next 10 minutes: the transcripts
 * touched since, and the sessions whose notes (`memdir session`) were written since — one session
 * counted once, whichever says it (a transcript is named after its session).
 */
async function countSessions(dir: string, since: number, options: GateOptions): Promise<number> {
  const transcripts = await recentTranscripts(await transcriptFolders(options.projectRoot, options.env ?? process.env), since, options.sessionId);
  const ids = new Set(transcripts.map((file) => sessionFileName(path.basename(file, '.jsonl'))));
  for (const id of sessionsWithNotesSince(dir, since)) if (id !== sessionFileName(options.sessionId ?? '')) ids.add(id);
  const sessions = ids.size;
  try {
    makeStateDir(dir);
    writeStateFile(dir, GATE_STATE, JSON.stringify({ scannedAt: options.now.getTime(), since, sessions, sessionId: options.sessionId ?? null } satisfies ScanRecord));
  } catch {
    // A directory memdir cannot write still gets an answer; the next check scans again.
  }
  return sessions;
}

function readRecord(file: string): ScanRecord | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as ScanRecord;
    return typeof value.scannedAt === 'number' && typeof value.sessions === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Claude Code's transcript folders for a project: the canonical root's, then each linked worktree's. */
export async function transcriptFolders(projectRoot: string | undefined, env: NodeJS.ProcessEnv): Promise<string[]> {
  if (!projectRoot) return [];
  const projects = path.join(configHome(env, homeDir(env)), 'projects');
  const roots = [memoryProjectRoot(projectRoot)];
  try {
    const { simpleGit } = lazyRequire<typeof import('simple-git')>('simple-git');
    const listing = await simpleGit(roots[0]!).raw(['worktree', 'list', '--porcelain']);
    for (const line of listing.split('\n')) if (line.startsWith('worktree ')) roots.push(line.slice('worktree '.length));
  } catch {
    // outside git: the project root's folder alone
  }
  return [...new Set(roots.map((root) => path.join(projects, sanitizeProjectPath(root.normalize('NFC')))))];
}

/** Main-session transcripts (`<id>.jsonl`, not `agent-*`) modified after `since`, except `exceptSession`'s. */
export async function recentTranscripts(folders: string[], since: number, exceptSession?: string | undefined): Promise<string[]> {
  const found: string[] = [];
  for (const folder of folders) {
    let names: string[];
    try {
      names = await fs.promises.readdir(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith('.jsonl') || name.startsWith('agent-') || name === `${exceptSession}.jsonl`) continue;
      try {
        if ((await fs.promises.stat(path.join(folder, name))).mtimeMs > since) found.push(path.join(folder, name));
      } catch {
        // gone since the listing
      }
    }
  }
  return found;
}
