import { calendarDay } from '../core/dates.js';
import path from 'node:path';
import { INDEX_FILE } from '../core/taxonomy.js';
import { commitChanges } from '../store/atomic.js';
import { settleDirectory, withDirLock } from '../store/lock.js';
import { readMemoryDir } from '../store/dir-reader.js';
import { anchorDate, buildModel } from '../core/dir-model.js';
import { DEFAULT_CONFIG } from '../config/validate.js';
import { lintModel } from '../lint/engine.js';
import { RULES } from '../lint/rules/index.js';
import { planRefactor, planRefactorKeepingWords, type PlanInputFile, type PlanOptions, type RefactorPlan } from './plan.js';
import { InputError, MemdirError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { ModelError } from '../llm/model.js';
import { lazyRequire } from '../core/lazy.js';
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

/** Read the directory and resolve each file's date anchor (modified → last commit → mtime); audit it with the lint rules. */
export async function planInput(dir: string): Promise<{ input: Map<string, PlanInputFile>; audit: Audit }> {
  const { raw } = await readMemoryDir(dir, { git: { repoFiles: true, commitTimes: true } });
  // Every refactor rewrites the index: an index memdir cannot write back is refused before anything else.
  const indexProblem = raw.escapingLinks.has(INDEX_FILE) ? messages.escapesDirectory(dir) : (raw.unreadable.find((u) => u.path === INDEX_FILE)?.message ?? raw.readOnly.get(INDEX_FILE));
  if (indexProblem) throw new InputError(path.join(dir, INDEX_FILE), indexProblem);
  const leftAlone = new Map<string, string>([
    ...raw.unreadable.map((u): [string, string] => [u.path, u.message]),
    ...[...raw.escapingLinks].filter((p) => p.endsWith('.md')).map((p): [string, string] => [p, messages.escapingFile()]),
    ...raw.readOnly,
  ]);
  const model = buildModel(raw, { skipIndex: false });
  const auditRules = RULES.filter((rule) => rule.id in AUDIT_RULES);
  const findings = lintModel(model, DEFAULT_CONFIG, auditRules);
  const audit = Object.entries(AUDIT_RULES).map(([rule, what]) => ({ rule, what, count: findings.filter((f) => f.ruleId === rule).length }));
  const input = new Map<string, PlanInputFile>();
  for (const topic of model.topics) {
    const anchor = anchorDate(topic);
    // The facts the date module chooses a trustworthy anchor from (the file time alone is none).
    const dateFacts = { frontmatter: topic.topic.frontmatter?.data, fileName: topic.path, commitTimeMs: topic.commitTimeMs, mtimeMs: topic.mtimeMs };
    input.set(topic.path, { text: topic.text, anchor: anchor.date, anchorSource: anchor.source, dateFacts, leftAlone: leftAlone.get(topic.path) });
  }
  // Files that could not be read at all still take part: their names are taken and their pointers kept.
  for (const [file, reason] of leftAlone) if (!input.has(file)) input.set(file, { text: '', anchor: new Date(0), anchorSource: 'none', leftAlone: reason });
  if (model.index) {
    const time = model.index.commitTimeMs ?? model.index.mtimeMs;
    const date = new Date(time);
    input.set(INDEX_FILE, {
      text: model.index.text,
      anchor: date,
      anchorSource: `${model.index.commitTimeMs ? 'last commit' : 'file time'} ${calendarDay(date)}`,
      dateFacts: { commitTimeMs: model.index.commitTimeMs, mtimeMs: model.index.mtimeMs },
    });
  }
  return { input, audit };
}

/** Each planned file's text as it is now. */
export function textsOf(input: Map<string, PlanInputFile>): Map<string, string> {
  return new Map([...input].map(([file, f]) => [file, f.text]));
}

/** Unified diffs of every change; a created or deleted file is named in a header of its own rather than against /dev/null. */
export async function diffsOf(input: Map<string, PlanInputFile>, plan: RefactorPlan): Promise<string[]> {
  const { createTwoFilesPatch, OMIT_HEADERS } = lazyRequire<typeof import('diff')>('diff');
  return [...plan.changes].map(([file, content]) => {
    const old = input.get(file)?.text;
    if (content !== null && old !== undefined) return createTwoFilesPatch(`a/${file}`, `b/${file}`, old, content);
    const header = content === null ? messages.diffDeleted(file) : messages.diffCreated(file);
    return `${header}\n${createTwoFilesPatch(file, file, old ?? '', content ?? '', undefined, undefined, { headerOptions: OMIT_HEADERS })}`;
  });
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
