/**
 * The PreToolUse guard (docs/hooks.md#guard): a Write, Edit or MultiEdit into the memory directory
 * is applied in memory and judged by lint's rules before Claude Code runs it; a write that would
 * break what the agent loads is refused with a reason the model can act on. Everything else
 * passes at once and in silence: most writes are not to memory, and this runs before each of them
 * (most never get here: src/fast/guard.ts lets them through first). Kept light (no yargs): the
 * fast path's hook bundle (hook-bundle.ts) and the full CLI call `runGuardHook`.
 */
import path from 'node:path';
import { messages } from '../core/messages.js';
import { readRawHookInput, runAsHook, typedHookInput, type ContextHookRun, type HookInput } from '../claude-code/hook-io.js';
import { resolveMemoryDir } from '../store/resolve.js';
import type { GuardVerdict } from './check.js';
import { targetFile } from './edit.js';
import { isInside, realpathOfNearest, surelyNoMemory, writePaths, type WritePaths } from './place.js';

/** Where the target sits in the memory directory: its path relative to it and the file, or undefined when it is outside; `escapesTo` when a link leads out. */
function placeInDirectory(dir: string, paths: WritePaths): { rel: string; target: string; escapesTo?: string } | undefined {
  const realDir = realpathOfNearest(dir) ?? dir;
  // Where the file system takes the write decides first (a link from outside, the directory named another way).
  const real = paths.real.find((candidate) => candidate !== undefined && isInside(realDir, candidate));
  if (real !== undefined) return { rel: path.relative(realDir, real), target: real };
  if (!isInside(dir, paths.lexical)) return undefined;
  const rel = path.relative(dir, paths.lexical);
  const escapesTo = paths.real.find((candidate) => candidate !== undefined && candidate !== realDir);
  return escapesTo === undefined ? { rel, target: paths.lexical } : { rel, target: paths.lexical, escapesTo };
}

export interface GuardHookRun extends ContextHookRun {}

/** What judging one write needs besides the hook input. */
export interface GuardRequest {
  dir?: string | undefined;
  trustProjectSettings: boolean;
  warn: (message: string) => void;
}

/** A write into the memory directory, located: what the judge needs. */
export interface LocatedWrite {
  raw: Record<string, unknown>;
  cwd: string | undefined;
  dir: string;
  /** The target relative to the memory directory, `/` separators. */
  rel: string;
  target: string;
  /** Where a symlink on the way leads out of the directory. */
  escapesTo?: string | undefined;
}

/**
 * The write a PreToolUse input proposes, when it goes into the memory directory; undefined for any
 * other write. Light on purpose: it runs before every Write and Edit of the session.
 */
export function locateWrite(raw: Record<string, unknown>, request: GuardRequest): LocatedWrite | undefined {
  const file = targetFile(raw.tool_name, raw.tool_input);
  if (file === undefined) return undefined;
  // Memories are Markdown: a write that lands on no Markdown file, however its path is followed, passes before anything else is read.
  const paths = writePaths(file, typeof raw.cwd === 'string' ? raw.cwd : process.cwd());
  if (surelyNoMemory(paths)) return undefined;
  const input = typedHookInput<HookInput>(raw);
  const resolution = resolveMemoryDir({ dir: request.dir, cwd: input.cwd, trustProjectSettings: request.trustProjectSettings || undefined });
  const place = placeInDirectory(resolution.dir, paths);
  if (!place) return undefined;
  const rel = place.rel.split(path.sep).join('/');
  // memdir's own state (.memdir/) and hidden folders are not read as memories, nor is any file but Markdown.
  if (rel.split('/').some((part) => part.startsWith('.')) || !rel.toLowerCase().endsWith('.md')) return undefined;
  for (const warning of resolution.warnings) request.warn(warning);
  return { raw, cwd: input.cwd, dir: resolution.dir, rel, target: place.target, escapesTo: place.escapesTo };
}

/** How a located write is judged: the judge (src/guard/judge.ts) is loaded only for writes into the memory directory. */
export type Judge = (write: LocatedWrite, request: GuardRequest) => GuardVerdict | undefined;

/** The verdict as Claude Code's PreToolUse answer: deny with the reasons, or a note, or nothing (allow, as without the hook). */
export function answer(verdict: GuardVerdict, options: Pick<ContextHookRun, 'write'>): void {
  if (verdict.block.length > 0) {
    const permissionDecisionReason = messages.guardBlocked(verdict.block);
    options.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason } })}\n`);
  } else if (verdict.warn.length > 0) {
    options.write(`${JSON.stringify({ systemMessage: messages.guardBlocked(verdict.warn) })}\n`);
  }
}

export function runGuardHook(options: GuardHookRun, judge: () => Judge): Promise<number> {
  return runAsHook('guard', async () => {
    // The one switch that turns memdir's blocking hooks off (the git pre-commit hook honours it too).
    if (process.env.MEMDIR_HOOKS === '0') return;
    const located = locateWrite(await readRawHookInput(), options);
    const verdict = located && judge()(located, options);
    if (verdict) answer(verdict, options);
  });
}
