/**
 * doctor's hook check: each of memdir's hooks `hooks status` found, run as Claude Code (or git)
 * runs it — `sh -c`, in the project, the event's JSON on stdin in the shape Claude Code sends it,
 * Claude Code's time limit — with `MEMDIR_HOOK_PROBE=1`, so the hooks that write (recall's session
 * record, extract's detached run, dream's gate and consolidation) stop before they do. Only a
 * command checked to be one plain call of this very memdir (or of a copy of the same version: it
 * knows the probe) is run; the SessionStart hook of the user's own settings also when it is another
 * memdir (it only reads). The memory directory is compared before and after: a write is an error.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOOK_PROBE_ENV } from '../claude-code/hook-io.js';
import type { HookRow } from '../claude-code/hook-row.js';
import { doctorText as text, type Finding } from '../core/doctor-findings.js';
import { MemdirError } from '../core/errors.js';
import { findGitRoot } from '../store/git-root.js';
import { packageDir } from '../store/templates.js';

export type { HookRow };

/** Claude Code's limit for a command hook without `timeout` (2.1.197: 600 s). */
const CLAUDE_HOOK_TIMEOUT_MS = 600_000;
/**
 * Claude Code's limit for SessionEnd hooks (2.1.197): CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS, else
 * the largest `timeout` of its SessionEnd entries, at least 1.5 s and at most 60 s.
 */
const SESSION_END_MIN_MS = 1_500;
const SESSION_END_MAX_MS = 60_000;
/** doctor waits no longer than this for one hook, whatever Claude Code would allow. */
const DOCTOR_WAIT_MS = 60_000;
/** What a hook may print before doctor stops reading it. */
const OUTPUT_MAX_BYTES = 1024 * 1024;

export interface HookRun {
  result: 'ok' | 'exit' | 'stderr' | 'too-slow' | 'not-found' | 'refused' | 'too-much-output';
  exitCode: number | null;
  /** The first stderr line (or why the run failed). */
  problem: string;
  ms: number;
  limitMs: number;
}

function claudeLimitMs(row: HookRow, env: NodeJS.ProcessEnv): number {
  if (row.event === 'SessionEnd') {
    const fromEnv = Number.parseInt(env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS ?? '', 10);
    if (Number.isFinite(fromEnv) && fromEnv > 0) return fromEnv;
    return Math.max(SESSION_END_MIN_MS, Math.min((row.timeout ?? 0) * 1000, SESSION_END_MAX_MS));
  }
  return row.timeout ? row.timeout * 1000 : CLAUDE_HOOK_TIMEOUT_MS;
}

/** The memdir running doctor: its package's name and version. */
let self: { bin: string; name: string; version: string } | undefined;
function thisMemdir(): { bin: string; name: string; version: string } {
  if (self) return self;
  const root = packageDir();
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  return (self = { bin: fs.realpathSync(path.join(root, 'bin', 'memdir.cjs')), name: pkg.name, version: pkg.version });
}

/** `program` is this memdir, or a copy of the same release (it knows the probe); read from disk, nothing run. */
export function isThisMemdir(program: string | undefined): boolean {
  if (!program) return false;
  try {
    const real = fs.realpathSync(program);
    const me = thisMemdir();
    if (real === me.bin) return true;
    if (path.basename(real) !== 'memdir.cjs') return false;
    const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(path.dirname(real)), 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return pkg.name === me.name && pkg.version === me.version;
  } catch {
    return false;
  }
}

/** Why a memdir hook is not run; undefined when it is. */
function notRunBecause(row: HookRow): string | undefined {
  if (row.runs !== true) return 'not one plain call of memdir';
  if (row.event === undefined) return row.block === undefined ? 'its block was edited since memdir wrote it' : undefined;
  if (isThisMemdir(row.program)) return undefined;
  // Another memdir may not know the probe: only the hook that only reads, and only from the user's own settings.
  if (row.event === 'SessionStart' && /\s(context)\s+--hook\b/.test(row.command) && /\((local|user)\)$/.test(row.hook)) return undefined;
  return `${row.program ?? 'its program'} is not this memdir (${thisMemdir().version})`;
}

/** The JSON Claude Code sends each event (the shapes 2.1.197 sends, test/fixtures/shared/claude-code-2.1.197/hook-input/). */
export function eventInput(event: string, cwd: string, transcript: string, session: string, dir: string): Record<string, unknown> {
  const base = { session_id: session, transcript_path: transcript, cwd };
  const turn = { prompt_id: randomUUID(), permission_mode: 'default' };
  switch (event) {
    case 'SessionStart':
      return { ...base, hook_event_name: event, source: 'startup' };
    case 'UserPromptSubmit':
      return { ...base, ...turn, hook_event_name: event, prompt: 'memdir doctor checks that this hook runs' };
    case 'PreToolUse':
      // A new topic file before its pointer: the guard judges it and lets it pass (Claude Code writes the file, then the index line).
      return {
        ...base,
        permission_mode: 'default',
        hook_event_name: event,
        tool_name: 'Write',
        tool_input: { file_path: path.join(dir, 'memdir_doctor_probe.md'), content: PROBE_MEMORY },
        tool_use_id: `toolu_${randomUUID().replace(/-/g, '')}`,
      };
    case 'Stop':
      return { ...base, ...turn, effort: { level: 'high' }, hook_event_name: event, stop_hook_active: false, last_assistant_message: '', background_tasks: [], session_crons: [] };
    default:
      return { ...base, prompt_id: randomUUID(), hook_event_name: event, reason: 'other' };
  }
}

const PROBE_MEMORY = '---\nname: Doctor probe\ndescription: A write memdir doctor offers the guard; never written\ntype: project\n---\n\nA probe.\n';

function firstLine(value: string): string {
  return value.trim().split('\n')[0]?.trim() ?? '';
}

/** Run one hook command as Claude Code (or git) runs it, with the probe set; what happened. */
function runHook(row: HookRow, cwd: string, dir: string, transcript: string, env: NodeJS.ProcessEnv): HookRun {
  const project = findGitRoot(cwd) ?? cwd;
  const limitMs = row.event === undefined ? DOCTOR_WAIT_MS : claudeLimitMs(row, env);
  const wait = Math.min(limitMs, DOCTOR_WAIT_MS);
  const input = row.event === undefined ? '' : JSON.stringify(eventInput(row.event, cwd, transcript, randomUUID(), dir));
  const script = row.event === undefined ? row.block! : row.command;
  const started = performance.now();
  const run = spawnSync('sh', ['-c', script], {
    // Git runs the pre-commit hook at the top of the worktree; Claude Code runs its hooks in the session's directory.
    cwd: row.event === undefined ? project : cwd,
    input,
    env: { ...env, CLAUDE_PROJECT_DIR: project, [HOOK_PROBE_ENV]: '1' },
    encoding: 'utf8',
    timeout: wait,
    killSignal: 'SIGKILL',
    maxBuffer: OUTPUT_MAX_BYTES,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const ms = Math.round(performance.now() - started);
  const code = (run.error as NodeJS.ErrnoException | undefined)?.code;
  const done = { exitCode: run.status, ms, limitMs };
  if (code === 'ETIMEDOUT') return { ...done, result: 'too-slow', problem: text.hookTooSlow(wait) };
  if (code === 'ENOBUFS') return { ...done, result: 'too-much-output', problem: text.hookTooMuchOutput(OUTPUT_MAX_BYTES) };
  if (run.error) return { ...done, result: 'exit', problem: code ?? run.error.message };
  const stderr = firstLine(run.stderr);
  if (run.status === 127) return { ...done, result: 'not-found', problem: stderr || 'exit 127' };
  // The git hook's exit 1 is lint's verdict on the staged memory files: the hook works.
  if (run.status !== 0 && !(row.event === undefined && run.status === 1)) return { ...done, result: 'exit', problem: stderr || `exit ${run.status}` };
  // memdir's hooks exit 0 whatever happens: a failure is their one stderr line.
  if (stderr && row.event !== undefined) return { ...done, result: 'stderr', problem: stderr };
  const denied = row.event === 'PreToolUse' && /"permissionDecision"\s*:\s*"deny"/.test(run.stdout);
  if (denied) return { ...done, result: 'refused', problem: firstLine(run.stdout) };
  return { ...done, result: 'ok', problem: '' };
}

/** The memory directory's files with their sizes and times, to tell whether a hook wrote; bounded. */
function snapshot(dir: string, limit = 5_000): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (folder: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (seen.size >= limit) return;
      const file = path.join(folder, entry.name);
      const stat = fs.lstatSync(file, { throwIfNoEntry: false });
      if (!stat) continue;
      seen.set(file, `${stat.size}:${stat.mtimeMs}`);
      if (entry.isDirectory()) walk(file);
    }
  };
  walk(dir);
  return seen;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = [...after].filter(([file, stamp]) => before.get(file) !== stamp).map(([file]) => file);
  return [...changed, ...[...before.keys()].filter((file) => !after.has(file))].sort();
}

/** Each memdir hook `hooks status` found: broken, run (and how that went), or why it was not run. */
export function hookFindings(read: () => HookRow[], cwd: string, dir: string, env: NodeJS.ProcessEnv): Finding[] {
  let rows: HookRow[];
  try {
    rows = read();
  } catch (error) {
    // A settings file hooks cannot read: a finding, so the rest of the report still comes.
    if (!(error instanceof MemdirError)) throw error;
    return [{ id: 'hooks-unreadable', severity: 'error', message: text.hooksUnreadable(error.message), evidence: {}, fix: text.fixHooksUnreadable() }];
  }
  const ours = rows.filter((row) => row.owner === 'memdir');
  if (ours.length === 0) return [{ id: 'hooks', severity: 'info', message: text.hooksNone(), evidence: { hooks: [] }, fix: text.fixHooksNone() }];
  const before = snapshot(dir);
  // A transcript with nothing in it: a Stop hook that ignored the probe would find nothing to extract.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-doctor-'));
  const transcript = path.join(scratch, `${randomUUID()}.jsonl`);
  fs.writeFileSync(transcript, '');
  try {
    const findings = ours.map((row): Finding => {
      const evidence = { file: row.file, command: row.command, found: row.detail ?? null };
      if (row.runs === false) return { id: 'hook-broken', severity: 'error', message: text.hookBroken(row.hook, row.command, row.detail ?? ''), evidence, fix: text.fixHookBroken() };
      const why = notRunBecause(row);
      if (why !== undefined) return { id: 'hook', severity: 'info', message: text.hookNotRun(row.hook, row.command, why), evidence: { ...evidence, ran: null }, fix: null };
      const ran = runHook(row, cwd, dir, transcript, env);
      const runner = row.event === undefined ? 'git' : 'Claude Code';
      const runEvidence = { ...evidence, ran: ran.result, exitCode: ran.exitCode, ms: ran.ms, limitMs: ran.limitMs };
      if (ran.result !== 'ok') {
        return {
          id: 'hook-failed',
          severity: 'error',
          message: text.hookFailed(row.hook, row.command, ran.problem, runner),
          evidence: { ...runEvidence, problem: ran.problem },
          fix: text.fixHookFailed(ran.result),
        };
      }
      return { id: 'hook', severity: 'info', message: text.hookRan(row.hook, row.command, ran.exitCode ?? 0, runner, ran.ms), evidence: runEvidence, fix: null };
    });
    const changed = changedFiles(before, snapshot(dir));
    if (changed.length > 0)
      findings.push({ id: 'hook-wrote', severity: 'error', message: text.hookWrote(dir, changed.length), evidence: { dir, files: changed.slice(0, 20) }, fix: text.fixHookWrote() });
    return findings;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
