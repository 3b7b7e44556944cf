import fs from 'node:fs';
import { RefusedError, UsageError } from '../core/errors.js';
import type { EngineName } from '../llm/model.js';
import { messages } from '../core/messages.js';
import { isHookProbe, readHookInput, runAsHook, type SessionEndInput } from '../claude-code/hook-io.js';
import { resolveFor, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { now } from '../store/test-hooks.js';
import { checkGate } from './gate.js';
import type { DreamResult } from './types.js';

/*
 * Only the gate is loaded up front: a SessionEnd hook that is not due (the
 * common case) must cost little more than starting Node. The planner, the
 * config loader and the history load when they are needed.
 */

export interface DreamCommandOptions extends GlobalArgs {
  force: boolean;
  ifDue?: boolean | undefined;
  hook: boolean;
  status: boolean;
  undo: boolean;
  dryRun: boolean;
  diff: boolean;
  commit: boolean;
  restructure?: boolean | undefined;
  pruneDrift: boolean;
  minHours?: number | undefined;
  minSessions?: number | undefined;
  maxDelete?: number | undefined;
  engine?: EngineName | undefined;
  model?: string | undefined;
}

/** Flags first, then memdir.config.json's `dream` section, then the defaults. */
async function settings(args: DreamCommandOptions, output: Output, dir: string, cwd: string) {
  const { configSection } = await import('../config/find.js');
  const config = configSection('dream', { dir, cwd, trustProjectSettings: args.trustProjectSettings || undefined }, output.warn);
  return {
    minHours: args.minHours ?? config.minHours,
    minSessions: args.minSessions ?? config.minSessions,
    maxDelete: args.maxDelete ?? config.maxDelete,
    engine: args.engine ?? config.engine,
    model: args.model ?? config.model,
    restructure: args.restructure ?? config.restructure,
  };
}

function asJson(result: DreamResult, summaryLine: (counts: DreamResult['counts']) => string) {
  return {
    dir: result.dir,
    status: result.status,
    gate: result.gate,
    repository: result.repository,
    summary: summaryLine(result.counts),
    counts: result.counts,
    budget: result.budget,
    agentView: result.view ?? null,
    operations: result.actions,
    files: [...(result.plan?.plan.changes ?? [])].map(([path, content]) => ({ path, action: content === null ? 'delete' : 'write' })),
    dropped: result.plan?.plan.dropped ?? [],
    warnings: result.plan?.plan.warnings ?? [],
    unsaved: result.unsaved,
    engine: result.engine,
    rejected: result.rejected,
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
    throw new UsageError(messages.noMemoryDirectory(dir));
  }
  const { minHours, minSessions, maxDelete, engine: engineName, model, restructure } = await settings(args, output, dir, projectRoot ?? dir);
  // doctor's probe (`MEMDIR_HOOK_PROBE`): input, directory and configuration checked; the gate records its count, a run writes.
  if (context.hook && isHookProbe()) return 0;
  if (args.undo) {
    const { undoLastRun } = await import('./history.js');
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
  // The gate before anything else loads: most hook calls end here.
  if (!args.force) {
    const gate = await checkGate(dir, { minHours, minSessions, now: now(), projectRoot, sessionId: context.sessionId });
    if (!gate.due) {
      if (args.json) output.json({ dir, status: 'not-due', gate });
      if (context.ifDue) return 0;
      output.warn(messages.dreamNotDue(gate.reason));
      return 1;
    }
  }
  const { usableEngine } = await import('../llm/model.js');
  const engine = usableEngine(engineName);
  const { dream } = await import('./run.js');
  const { hookSummaryLines, summaryLine, viewLines } = await import('./report.js');
  const { memoryRepository } = await import('./repo-facts.js');
  const repository = memoryRepository(dir, { rule: resolution.rule, projectRoot });
  // Said once, where it matters: a --dir the command was not started beside.
  if (repository === null && resolution.rule === 'flag' && !context.hook) output.info(messages.dreamNoDriftRepository(dir));
  const result = await dream({
    dir,
    projectRoot,
    repository,
    restructure,
    pruneDrift: args.pruneDrift,
    sessionId: context.sessionId,
    force: args.force,
    minHours,
    minSessions,
    maxDelete,
    dryRun: args.dryRun,
    commit: args.commit,
    engine,
    model,
    warn: output.warn,
  });
  if (result.status === 'running') {
    if (args.json) output.json(asJson(result, summaryLine));
    output.warn(messages.dreamRunning(undefined));
    return context.hook ? 0 : 1;
  }
  if (args.json) output.json(asJson(result, summaryLine));
  else if (context.hook) for (const line of hookSummaryLines(result)) output.info(line);
  else {
    // The summary first: the counts, what the agent will see, one line per file with its reasons.
    output.write(`${[`${args.dryRun ? 'dry run: ' : ''}${summaryLine(result.counts)}`, ...viewLines(result, args.dryRun)].join('\n')}\n`);
    for (const r of result.rejected) output.warn(messages.dreamNotApplied(JSON.stringify(r.operation), r.error));
    for (const w of result.plan?.plan.warnings ?? []) output.info(messages.dreamLeftForYou(w.path, w.message));
    for (const u of result.unsaved) output.info(messages.dreamNotSaved(u.transcript, u.text));
    if (result.report) output.info(messages.dreamReportAt(result.report));
    if (result.commit) output.info(messages.dreamCommitted(result.commit));
    if (args.diff) output.write(result.diffs.join(''));
  }
  if (result.status === 'over-budget') {
    output.warn(messages.dreamOverBudget(result.budget.deletes, result.budget.memories, result.budget.maxDelete));
    return 1;
  }
  return 0;
}
