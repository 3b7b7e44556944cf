import fs from 'node:fs';
import { RefusedError, UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { findConfig } from '../config/find.js';
import { RULES } from '../lint/rules/index.js';
import { readHookInput, runAsHook, type SessionEndInput } from '../hooks/io.js';
import { resolveFor, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { now } from './clock.js';
import { checkGate } from './gate.js';
import { undoLastRun } from './history.js';
import { actionLines, summaryLine } from './report.js';
import { dream, type DreamResult } from './run.js';

export interface DreamCommandOptions extends GlobalArgs {
  force: boolean;
  ifDue?: boolean | undefined;
  hook: boolean;
  status: boolean;
  undo: boolean;
  dryRun: boolean;
  commit: boolean;
  minHours?: number | undefined;
  minSessions?: number | undefined;
  maxDelete?: number | undefined;
}

/** Flags first, then memdir.config.json's `dream` section, then the defaults (24 h, 5 sessions, 25%). */
function settings(args: DreamCommandOptions, dir: string, cwd: string) {
  const config = fs.existsSync(dir) ? findConfig(dir, cwd, RULES).config.dream : {};
  return {
    minHours: args.minHours ?? config.minHours ?? 24,
    minSessions: args.minSessions ?? config.minSessions ?? 5,
    maxDelete: args.maxDelete ?? config.maxDelete ?? 25,
  };
}

function asJson(result: DreamResult) {
  return {
    dir: result.dir,
    status: result.status,
    gate: result.gate,
    summary: summaryLine(result.counts),
    counts: result.counts,
    budget: result.budget,
    operations: result.actions,
    files: [...(result.plan?.plan.changes ?? [])].map(([path, content]) => ({ path, action: content === null ? 'delete' : 'write' })),
    dropped: result.plan?.plan.dropped ?? [],
    diff: result.diffs.join(''),
    report: result.report,
    commit: result.commit,
  };
}

/** `memdir dream`: consolidate when due; `--status`, `--undo`, `--dry-run`; `--hook` for Claude Code's SessionEnd. */
export async function runDreamCommand(args: DreamCommandOptions, output: Output): Promise<number> {
  if (args.hook) {
    let code = 0;
    await runAsHook('dream', async () => {
      const input = await readHookInput<SessionEndInput>();
      code = await consolidate(args, output, { cwd: input.cwd, sessionId: input.session_id, ifDue: args.ifDue ?? true, hook: true });
    });
    return code;
  }
  return consolidate(args, output, { cwd: undefined, sessionId: undefined, ifDue: args.ifDue ?? false, hook: false });
}

async function consolidate(args: DreamCommandOptions, output: Output, context: { cwd: string | undefined; sessionId: string | undefined; ifDue: boolean; hook: boolean }): Promise<number> {
  const resolution = resolveFor(args, output, context.cwd);
  const { dir } = resolution;
  const projectRoot = context.cwd ?? resolution.projectRoot;
  if (!fs.existsSync(dir)) {
    if (context.hook) return 0;
    throw new UsageError(`${dir}: no memory directory here`);
  }
  const { minHours, minSessions, maxDelete } = settings(args, dir, projectRoot ?? dir);
  if (args.undo) {
    const undone = await undoLastRun(dir, now());
    if (!undone.run) throw new RefusedError(messages.dreamNothingToUndo());
    if (args.json) output.json(undone);
    else output.out(`restored ${undone.restored.length} file(s) and removed ${undone.removed.length} as they were before the dream run ${undone.run}\n`);
    return 0;
  }
  if (args.status) {
    const gate = await checkGate(dir, { minHours, minSessions, now: now(), projectRoot, sessionId: context.sessionId });
    if (args.json) output.json({ dir, gate });
    else {
      output.out(`last consolidation: ${gate.lastConsolidation ?? 'never'}\n`);
      output.out(`sessions since: ${gate.sessionsSince ?? 'not counted (too recent)'}${gate.cached ? ' (counted under 10 minutes ago)' : ''}\n`);
      output.out(`${gate.due ? 'due' : 'not due'}: ${gate.reason}\n`);
    }
    return 0;
  }
  const result = await dream({ dir, projectRoot, sessionId: context.sessionId, force: args.force, minHours, minSessions, maxDelete, dryRun: args.dryRun, commit: args.commit });
  if (result.status === 'not-due') {
    if (args.json) output.json(asJson(result));
    if (context.ifDue) return 0;
    output.warn(messages.dreamNotDue(result.gate.reason));
    return 1;
  }
  if (result.status === 'running') {
    if (args.json) output.json(asJson(result));
    output.warn(messages.dreamRunning(undefined));
    return context.hook ? 0 : 1;
  }
  if (args.json) output.json(asJson(result));
  else {
    if (args.dryRun) output.write(result.diffs.join(''));
    const lines = actionLines(result.actions);
    if (lines.length) output.write(`${args.dryRun ? 'would ' : ''}${lines.length === 1 ? 'change' : 'change'}:\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
    output.out(`${args.dryRun ? 'dry run: ' : ''}${summaryLine(result.counts)}\n`);
    if (result.report) output.info(`report: ${result.report}`);
    if (result.commit) output.info(`committed ${result.commit}`);
  }
  if (result.status === 'over-budget') {
    output.warn(messages.dreamOverBudget(result.budget.deletes, result.budget.memories, result.budget.maxDelete));
    return 1;
  }
  return 0;
}
