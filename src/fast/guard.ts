/**
 * Entry of `dist/fast/guard.cjs`: the PreToolUse hook's fast path (see bin/memdir.cjs). It runs
 * before every Write and Edit of the session, and most land outside the memory directory: those are
 * let through from this bundle alone (stdin, the write's paths, the bounds of the memory directory),
 * which loads nothing else. Any other write, and anything this cannot read plainly, goes to the
 * hook with its judge (`dist/guard-hook.cjs`), with what was read of stdin (bench `guard`).
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { NOT_AN_OBJECT, readStdinPrefix, SURROGATE_ESCAPE, type StdinPrefix } from '../claude-code/hook-stdin.js';
import { guard } from '../cmd/table/guard.js';
import { targetFile } from '../guard/edit.js';
import type { HandedInput, runGuardHookBundle } from '../guard/hook-bundle.js';
import { surelyNoMemory, writePaths } from '../guard/place.js';
import { fastPath } from '../shell/hook-args.js';
import { memoryDirBounds } from '../store/memory-bounds.js';

/** The first object on stdin when it is plain JSON of a plain shape; undefined leaves it to the hook runtime and its messages. */
function plainInput(prefix: StdinPrefix): Record<string, unknown> | undefined {
  if (prefix.end === undefined || prefix.end === NOT_AN_OBJECT) return undefined;
  const bytes = prefix.bytes.subarray(0, prefix.end);
  if (!isUtf8(bytes)) return undefined;
  let parsed = prefix.parsed;
  if (parsed === undefined) {
    const text = bytes.toString('utf8');
    try {
      parsed = { text, value: JSON.parse(text) as unknown };
    } catch {
      return undefined;
    }
  }
  const { text, value } = parsed;
  if (SURROGATE_ESCAPE.test(text)) return undefined;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Whether the write surely touches no memory: as `locateWrite` (src/guard/hook.ts) decides, without resolving the directory. */
function passes(raw: Record<string, unknown>, dir: string | undefined): boolean {
  const file = targetFile(raw.tool_name, raw.tool_input);
  if (file === undefined) return true;
  const cwd = typeof raw.cwd === 'string' ? raw.cwd : process.cwd();
  const paths = writePaths(file, cwd);
  if (surelyNoMemory(paths)) return true;
  // A session folder that is gone is the hook runtime's to report.
  if (typeof raw.cwd === 'string' && !fs.statSync(raw.cwd, { throwIfNoEntry: false })?.isDirectory()) return false;
  const bounds = memoryDirBounds({ dir, cwd: path.resolve(cwd).normalize('NFC') });
  return bounds !== undefined && surelyNoMemory(paths, bounds);
}

function hookBundle(): typeof runGuardHookBundle {
  const dist = path.join(__dirname, '..');
  const { requireBundle } = require(path.join(dist, 'code-cache.cjs')) as { requireBundle: (file: string) => unknown };
  return (requireBundle(path.join(dist, 'guard-hook.cjs')) as { runGuardHookBundle: typeof runGuardHookBundle }).runGuardHookBundle;
}

export const tryFastPath = fastPath(guard, (args) => {
  // The one switch that turns memdir's blocking hooks off (the git pre-commit hook honours it too).
  if (process.env.MEMDIR_HOOKS === '0') return true;
  const prefix = readStdinPrefix();
  const raw = prefix && plainInput(prefix);
  let handed: HandedInput = prefix && { prefix };
  if (raw) {
    try {
      if (passes(raw, args.dir)) return true;
    } catch {
      // anything unexpected: the hook runtime runs it again and reports
    }
    handed = { raw };
  }
  return hookBundle()(args, handed);
});
