import path from 'node:path';
import { INDEX_FILE } from '../core/taxonomy.js';
import { commitChanges } from '../store/atomic.js';
import { settleDirectory, withDirLock } from '../store/lock.js';
import { DEFAULT_CONFIG } from '../config/validate.js';
import { lintModel } from '../lint/engine.js';
import { RULES } from '../lint/rules/index.js';
import { diffsOf, readPlanInput, textsOf } from '../restructure/input.js';
import { planRefactor, planRefactorKeepingWords, type PlanInputFile, type PlanOptions, type RefactorPlan } from './plan.js';
import { MemdirError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { ModelError } from '../llm/model.js';
import { agentView, type AgentView } from '../core/agent-view.js';

export interface RefactorOptions {
  dryRun?: boolean;
  /** Compute the unified diffs also for a run that writes. */
  diff?: boolean;
  engine?: 'local' | 'claude';
  model?: string | undefined;
  /** Where to say that the claude engine fell back to local. */
  warn?: (message: string) => void;
  anchor?: Date | undefined;
  /** Fault injection for tests: called after each step of the write. */
  afterStep?: (step: string) => void;
}

export interface RefactorResult {
  dir: string;
  plan: RefactorPlan;
  audit: Audit;
  engine: 'local' | 'claude';
  usage?: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
  /** Unified diffs of every changed file (with dryRun or diff; empty otherwise). */
  diffs: string[];
  /** What the change does to what the agent loads. */
  view: AgentView;
  written: boolean;
}

/** What the audit counts, by the lint rule that finds it. */
const AUDIT_RULES: Record<string, string> = {
  MEM017: 'topic files over 200 lines',
  MEM012: 'files without frontmatter or missing fields',
  MEM010: 'files whose frontmatter does not parse',
  MEM018: 'near-duplicate topics',
  MEM016: 'relative dates',
  MEM019: 'content derivable from the code (file:line, commit hashes, repository paths)',
};

export type Audit = Array<{ rule: string; what: string; count: number }>;

/** The plan's input, and the directory audited with the lint rules that count what refactor repairs. */
async function planInput(dir: string): Promise<{ input: Map<string, PlanInputFile>; audit: Audit }> {
  const { input, model } = await readPlanInput(dir);
  const auditRules = RULES.filter((rule) => rule.id in AUDIT_RULES);
  const findings = lintModel(model, DEFAULT_CONFIG, auditRules);
  const audit = Object.entries(AUDIT_RULES).map(([rule, what]) => ({ rule, what, count: findings.filter((f) => f.ruleId === rule).length }));
  return { input, audit };
}

/** Plan and (unless dry-run) apply a refactor as one locked transaction. */
export async function runRefactor(dir: string, options: RefactorOptions = {}): Promise<RefactorResult> {
  const once = async (): Promise<RefactorResult> => {
    const { input, audit } = await planInput(dir);
    let proposals: PlanOptions['proposals'];
    let plan = planRefactor(input, { anchor: options.anchor });
    let engine: 'local' | 'claude' = 'local';
    let usage: RefactorResult['usage'];
    if (options.engine === 'claude' && plan.blocks.length > 0) {
      // The model only names and types the blocks; the planner stays in charge of where content goes.
      try {
        const { proposeForBlocks } = await import('./claude.js');
        const answer = await proposeForBlocks(plan.blocks, { model: options.model });
        proposals = answer.value;
        plan = planRefactor(input, { anchor: options.anchor, proposals });
        engine = 'claude';
        usage = answer.usage;
      } catch (error) {
        // A rejected key is the user's to fix; anything else falls back to the local engine.
        if (!(error instanceof ModelError) || error.kind === 'auth') throw error;
        options.warn?.(messages.engineFellBack('refactor', error.message));
      }
    }
    // A plan that would lose a word is never written (see planKeepingWords).
    const kept = planRefactorKeepingWords(input, { anchor: options.anchor, proposals }, plan);
    const first = kept.lost.find((l) => l.words?.length) ?? kept.lost[0];
    if (first) {
      throw new MemdirError(messages.refactorWouldLose(kept.lost.length, `${first.file}:${first.line}`, first.text.trim().slice(0, 80), first.words ?? []), {
        hint: messages.reportThisDirectory(),
      });
    }
    plan = kept.plan;
    // Diffs are asked for; computing them for hundreds of files is not free.
    const diffs = options.dryRun || options.diff ? await diffsOf(input, plan) : [];
    const view = agentView(textsOf(input), plan.changes);
    if (!options.dryRun && plan.changes.size > 0) {
      const changes = [...plan.changes].map(([file, content]) => (content === null ? { path: file, delete: true as const } : { path: file, content }));
      // The index goes last: until it is renamed, the agent still sees the old, complete layout.
      changes.sort((a, b) => Number(a.path === INDEX_FILE) - Number(b.path === INDEX_FILE));
      commitChanges(dir, changes, { afterStep: options.afterStep });
    }
    return { dir, plan, audit, engine, usage, diffs, view, written: !options.dryRun && plan.changes.size > 0 };
  };
  if (options.dryRun) {
    await settleDirectory(dir);
    return once();
  }
  return withDirLock(path.resolve(dir), once);
}
