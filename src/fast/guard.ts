/** Entry of `dist/fast/guard.cjs`: the PreToolUse hook's fast path (see bin/memdir.cjs). */
import path from 'node:path';
import { guard } from '../cmd/table/guard.js';
import { fastPath } from '../shell/hook-args.js';
import { takeFastPath, type Judge } from '../guard/hook.js';

/**
 * The judge and lint's rules are a bundle of their own (`dist/guard-judge.cjs`, beside `dist/fast/`),
 * loaded with the code cache only for a write into the memory directory: every other write of the
 * session (most of them) starts only this one (bench `guard`).
 */
function judge(): Judge {
  const dist = path.join(__dirname, '..');
  const { requireBundle } = require(path.join(dist, 'code-cache.cjs')) as { requireBundle: (file: string) => unknown };
  return (requireBundle(path.join(dist, 'guard-judge.cjs')) as { judgeLocated: Judge }).judgeLocated;
}

export const tryFastPath = fastPath(guard, (args) => takeFastPath(args, judge));
