/**
 * The PreToolUse guard (docs/hooks.md#guard): a Write, Edit or MultiEdit into the memory directory
 * is applied in memory and judged by lint's rules before Claude Code runs it; a write that would
 * break what the agent loads is refused with a reason the model can act on. Everything else
 * passes at once and in silence: most writes are not to memory, and this runs before each of them.
 * Kept light (no yargs): the fast path (src/fast/guard.ts) and the full CLI call `runGuardHook`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { messages } from '../core/messages.js';
import { INDEX_FILE, TEAM_DIR } from '../core/taxonomy.js';
import { hookWarnings, readRawHookInput, runAsHook, startHookRun, typedHookInput, writeStdout, type ContextHookRun, type HookInput } from '../claude-code/hook-io.js';
import { loadConfig } from '../config/find.js';
import { sectionSettings, type SectionValues } from '../config/sections.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { judgeWrite, type GuardVerdict } from './check.js';
import { proposedText, targetFile, type GuardedTool } from './edit.js';

/** A file larger than this is no memory Claude Code loads; the guard does not read it. */
const MAX_GUARDED_BYTES = 8 * 1024 * 1024;

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

/** realpath of `target`, or of its deepest existing folder plus the rest (a dangling link followed); undefined when it cannot be read. */
function realpathOfNearest(target: string, links = 0): string | undefined {
  const missing: string[] = [];
  for (let current = target; ; ) {
    try {
      return path.join(fs.realpathSync.native(current), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
      // A link to a file not there yet: a write through it creates that file.
      if (links < 40 && fs.lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink()) {
        return realpathOfNearest(path.join(path.resolve(path.dirname(current), fs.readlinkSync(current)), ...missing.reverse()), links + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return undefined;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** Where the target sits in the memory directory: its path relative to it, or undefined when it is outside; `escapesTo` when a link leads out. */
function placeInDirectory(dir: string, target: string): { rel: string; escapesTo?: string } | undefined {
  const realDir = realpathOfNearest(dir) ?? dir;
  const realTarget = realpathOfNearest(target);
  const lexical = isInside(dir, target) ? path.relative(dir, target) : undefined;
  if (lexical !== undefined) {
    const escaped = realTarget !== undefined && !isInside(realDir, realTarget) && realTarget !== realDir;
    return escaped ? { rel: lexical, escapesTo: realTarget } : { rel: lexical };
  }
  // The directory named another way (a symlinked home, /tmp and /private/tmp).
  if (realTarget !== undefined && isInside(realDir, realTarget)) return { rel: path.relative(realDir, realTarget) };
  return undefined;
}

function readText(file: string): string | undefined | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (!stat.isFile() || stat.size > MAX_GUARDED_BYTES) return null;
  return fs.readFileSync(file, 'utf8');
}

export interface GuardHookRun extends ContextHookRun {}

/** The verdict as Claude Code's PreToolUse answer: deny with the reasons, or a note, or nothing (allow, as without the hook). */
function answer(verdict: GuardVerdict, options: Pick<ContextHookRun, 'write'>): void {
  if (verdict.block.length > 0) {
    const permissionDecisionReason = messages.guardBlocked(verdict.block);
    options.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason } })}\n`);
  } else if (verdict.warn.length > 0) {
    options.write(`${JSON.stringify({ systemMessage: messages.guardBlocked(verdict.warn) })}\n`);
  }
}

/** What judging one write needs besides the hook input. */
export interface GuardRequest {
  dir?: string | undefined;
  trustProjectSettings: boolean;
  warn: (message: string) => void;
}

/** The verdict on the write a PreToolUse input proposes; undefined when it is no write into the memory directory (or one Claude Code would refuse). */
export function judgeHookInput(raw: Record<string, unknown>, request: GuardRequest): GuardVerdict | undefined {
  const file = targetFile(raw.tool_name, raw.tool_input);
  // Memories are Markdown: any other file passes before anything else is read.
  if (file === undefined || !file.toLowerCase().endsWith('.md')) return undefined;
  const input = typedHookInput<HookInput>(raw);
  const target = path.resolve(input.cwd ?? process.cwd(), file);
  const trustProjectSettings = request.trustProjectSettings || undefined;
  const resolution = resolveMemoryDir({ dir: request.dir, cwd: input.cwd, trustProjectSettings });
  const place = placeInDirectory(resolution.dir, target);
  if (!place) return undefined;
  const rel = place.rel.split(path.sep).join('/');
  // memdir's own state (.memdir/) and hidden folders are not read as memories.
  if (rel.split('/').some((part) => part.startsWith('.'))) return undefined;
  for (const warning of resolution.warnings) request.warn(warning);
  const loaded = loadConfig({ dir: resolution.dir, cwd: input.cwd, trustProjectSettings, sections: ['guard'] });
  for (const warning of loaded.warnings) request.warn(warning);
  const settings = sectionSettings('guard', loaded.config.guard as SectionValues<'guard'>);
  if (place.escapesTo !== undefined) {
    const verdict: GuardVerdict = { block: [], warn: [] };
    if (settings.escape !== 'off') verdict[settings.escape].push(messages.guardEscape(rel, place.escapesTo));
    return verdict;
  }
  const team = rel.startsWith(`${TEAM_DIR}/`);
  const scopeDir = team ? path.join(resolution.dir, TEAM_DIR) : resolution.dir;
  const scopeRel = team ? rel.slice(TEAM_DIR.length + 1) : rel;
  const before = readText(target);
  if (before === null) return undefined;
  const after = proposedText(raw.tool_name as GuardedTool, raw.tool_input as Record<string, unknown>, before);
  // Claude Code refuses an edit whose old_string does not match: nothing would be written.
  if (after === undefined || after === before) return undefined;
  const index = scopeRel === INDEX_FILE ? undefined : (readText(path.join(scopeDir, INDEX_FILE)) ?? undefined);
  return judgeWrite({ file: scopeRel, scope: team ? `${TEAM_DIR}/` : '', before, after, index }, settings, loaded.config.ruleOptions);
}

export function runGuardHook(options: GuardHookRun): Promise<number> {
  return runAsHook('guard', async () => {
    // The one switch that turns memdir's blocking hooks off (the git pre-commit hook honours it too).
    if (process.env.MEMDIR_HOOKS === '0') return;
    const verdict = judgeHookInput(await readRawHookInput(), options);
    if (verdict) answer(verdict, options);
  });
}

/** The fast path of `guard --hook` (src/fast/guard.ts): it always takes the command. */
export function takeFastPath(args: Omit<GuardHookRun, 'write' | 'warn'> & { quiet: boolean }): boolean {
  return startHookRun(runGuardHook({ dir: args.dir, trustProjectSettings: args.trustProjectSettings, write: writeStdout, warn: hookWarnings(args.quiet) }));
}
