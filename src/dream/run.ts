import path from 'node:path';
import { calendarDay } from '../core/dates.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { memoryFields, parseTopicFile } from '../core/topic-file.js';
import { ModelError } from '../llm/model.js';
import { SUB_INDEX, type PlanInputFile } from '../restructure/phases/state.js';
import type { ShownMemory, ValidatedOperations } from './claude.js';
import { UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { findGitRoot } from '../store/git-root.js';
import { loadDirectory } from '../store/dir-reader.js';
import { commitChanges, type FileChange } from '../store/atomic.js';
import { withDirLock } from '../store/lock.js';
import { diffsOf, readPlanInput, textsOf } from '../restructure/input.js';
import { agentView } from '../core/agent-view.js';
import { now as clockNow } from '../store/test-hooks.js';
import { releaseConsolidationLock, rollBackConsolidationLock, takeConsolidationLock, lockHolder, TAKEN_RECORD } from './consolidate-lock.js';
import { checkGate, recentTranscripts, transcriptFolders, type GateState } from './gate.js';
import { keepPreviousVersions, runStamp, sweepUnappliedRuns, writeReport } from './history.js';
import { planDreamKeepingWords, type DreamPlan } from './plan.js';
import type { DreamCounts, DreamResult } from './types.js';

export type { DreamCounts, DreamResult, DreamStatus } from './types.js';
import { memoryRepository, readRepoFacts } from './repo-facts.js';
import type { RepoFacts } from './phases.js';
import { citations } from './drift.js';
import { unsavedRequests } from './signal.js';
import { formatDreamReport } from './report.js';
import { fieldDefault } from '../config/sections.js';

export interface DreamOptions {
  /** The memory directory. */
  dir: string;
  /** Where the agent runs: it names the transcript folders. */
  projectRoot?: string | undefined;
  /**
   * The git repository the memories belong to, the only one drift is checked against (see
   * memoryRepository); null: no drift check. Default: the repository holding the directory.
   */
  repository?: string | null | undefined;
  /** The whole two-layer restructure, not only what a named problem requires. */
  restructure?: boolean | undefined;
  /** Delete lines about code the repository no longer has, instead of marking them stale. */
  pruneDrift?: boolean | undefined;
  /** The session ending now (from the SessionEnd hook), not counted as a session since. */
  sessionId?: string | undefined;
  /** Skip the gate. */
  force?: boolean;
  minHours?: number;
  minSessions?: number;
  /** Most memories one run may delete, in percent (default: the `dream.maxDelete` default of the config spec). */
  maxDelete?: number;
  dryRun?: boolean;
  /** Commit the change in the git work tree holding the directory, the report as message. */
  commit?: boolean;
  /** Resolve relative dates against this date instead of each file's own. */
  anchor?: Date | undefined;
  /** `claude`: one model call proposes deletions and line removals, validated one by one (default local). */
  engine?: 'local' | 'claude';
  model?: string | undefined;
  /** Where to say that the claude engine fell back to local. */
  warn?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

const PRUNING = new Set(['contradiction', 'drift', 'model']);

/** Memories are topic files: the index and its sub-indexes are not, nor is a pointer to a file that does not exist. */
function countsOf(dreamPlan: DreamPlan): DreamCounts {
  const { plan, actions } = dreamPlan;
  const memoryFiles = [...plan.changes.keys()].filter((p) => p !== INDEX_FILE && !/^index_\w+\.md$/.test(p));
  return {
    improved: memoryFiles.length,
    merged: plan.operations.filter((o) => o.kind === 'merge').length,
    dates: plan.operations.filter((o) => o.kind === 'rewrite-date').length,
    pruned: actions.filter((a) => PRUNING.has(a.kind)).length,
    stale: actions.filter((a) => a.kind === 'stale').length,
    deadPointers: actions.filter((a) => a.kind === 'dead-pointer').length,
    indexRewritten: plan.changes.has(INDEX_FILE),
  };
}

const NOTHING: DreamCounts = { improved: 0, merged: 0, dates: 0, pruned: 0, stale: 0, deadPointers: 0, indexRewritten: false };

/** The newest 200 editable memories as the model sees them. */
function shownMemories(input: Map<string, PlanInputFile>): ShownMemory[] {
  const shown = [...input]
    .filter(([file, f]) => file !== INDEX_FILE && !f.leftAlone && !SUB_INDEX.test(file))
    .sort(([, a], [, b]) => b.anchor.getTime() - a.anchor.getTime())
    .slice(0, 200);
  return shown.map(([file, f]) => {
    const { file: topic } = parseTopicFile(f.text);
    return { path: file, type: memoryFields(topic.frontmatter?.data ?? {}).type ?? 'unknown', date: calendarDay(f.anchor), body: topic.body };
  });
}

/** The claude engine's validated operations; on a model failure other than a rejected key, the local engine alone (said on `warn`). */
async function askModel(input: Map<string, PlanInputFile>, options: DreamOptions): Promise<ValidatedOperations | undefined> {
  try {
    const { proposeOperations } = await import('./claude.js');
    return (await proposeOperations(shownMemories(input), { model: options.model, env: options.env })).value;
  } catch (error) {
    if (!(error instanceof ModelError) || error.kind === 'auth') throw error;
    options.warn?.(messages.engineFellBack('dream', error.message));
    return undefined;
  }
}

/** What a run without a plan answers (not due, or another run holds the lock). */
function unplanned(dir: string, gate: GateState, maxDelete: number): Omit<DreamResult, 'status'> {
  return {
    dir,
    gate,
    repository: null,
    actions: [],
    unsaved: [],
    engine: 'local',
    rejected: [],
    counts: NOTHING,
    diffs: [],
    report: null,
    commit: null,
    budget: { maxDelete, deletes: 0, memories: 0 },
  };
}

/** What the plan needs from outside the directory, gathered before the writer lock is taken. */
interface OutsideFacts {
  repository: string | null;
  repo: RepoFacts | undefined;
  /** The sessions since the last consolidation. */
  transcripts: string[];
  model: ValidatedOperations | undefined;
}

async function gatherOutsideFacts(dir: string, gate: GateState, options: DreamOptions, env: NodeJS.ProcessEnv): Promise<OutsideFacts> {
  // What the memories cite is asked of git before the writer lock (git grep and the history take
  // a moment), from the topic files as they are now; only the memories' own repository is asked.
  const repository = options.repository === undefined ? memoryRepository(dir, { rule: 'flag', projectRoot: undefined }, env) : options.repository;
  const cited = repository ? [...loadDirectory(dir).raw.files].filter(([file]) => file !== INDEX_FILE).flatMap(([, f]) => f.text.split(/\r?\n/).flatMap((line) => citations(line))) : [];
  const repo = await readRepoFacts(repository, cited);
  // Listed before this run moves the consolidation time.
  const since = gate.lastConsolidation ? Date.parse(gate.lastConsolidation) : 0;
  const transcripts = await recentTranscripts(await transcriptFolders(options.projectRoot, env), since);
  // A model call must not keep save and the hooks waiting on the writer lock.
  const model = options.engine === 'claude' ? await askModel((await readPlanInput(dir)).input, options) : undefined;
  return { repository, repo, transcripts, model };
}

/** The plan for the directory as it is now, with what it would change and what it leaves for the user. */
async function planRun(dir: string, gate: GateState, facts: OutsideFacts, options: DreamOptions, at: Date, maxDelete: number): Promise<Omit<DreamResult, 'status' | 'report' | 'commit'>> {
  const { repository, repo, transcripts, model } = facts;
  const { input } = await readPlanInput(dir);
  const texts = textsOf(input);
  const dreamPlan = planDreamKeepingWords(input, { anchor: options.anchor, repo, proposals: model?.valid, restructure: options.restructure, pruneDrift: options.pruneDrift, today: at });
  const budget = { maxDelete, deletes: dreamPlan.deletes.length, memories: dreamPlan.memories };
  // Topic files only: the index's pointer lines would count as holding whatever they mention.
  const unsaved = await unsavedRequests(
    transcripts,
    [...texts].filter(([file]) => file !== INDEX_FILE).map(([, text]) => text),
  );
  return {
    dir,
    gate,
    repository,
    plan: dreamPlan,
    actions: dreamPlan.actions,
    unsaved,
    engine: model ? 'claude' : 'local',
    rejected: model?.rejected ?? [],
    counts: countsOf(dreamPlan),
    diffs: await diffsOf(input, dreamPlan.plan),
    view: agentView(texts, dreamPlan.plan.changes),
    budget,
  };
}

const overBudget = (budget: DreamResult['budget']) => budget.deletes > (budget.memories * budget.maxDelete) / 100;

/** Apply a plan within budget (call under the directory lock): previous versions kept, one commit point, the report written. */
function applyPlanned(dir: string, planned: Omit<DreamResult, 'status' | 'report' | 'commit'>, previousMtimeMs: number | undefined, at: Date): DreamResult {
  if (overBudget(planned.budget)) return { ...planned, status: 'over-budget', report: null, commit: null };
  const changes: FileChange[] = [...planned.plan!.plan.changes].map(([file, content]) => (content === null ? { path: file, delete: true as const } : { path: file, content }));
  if (changes.length === 0) return { ...planned, status: 'unchanged', report: null, commit: null };
  // The index goes last: until it is renamed, the agent still sees the old, complete layout.
  changes.sort((a, b) => Number(a.path === INDEX_FILE) - Number(b.path === INDEX_FILE));
  sweepUnappliedRuns(dir);
  const stamp = runStamp(dir, at);
  const manifest = keepPreviousVersions(dir, stamp, changes, previousMtimeMs);
  // One commit point for the memories, the run's history entry and the consolidation time.
  commitChanges(dir, [...changes, manifest, { path: TAKEN_RECORD, delete: true }]);
  const reportText = formatDreamReport({ ...planned, status: 'applied', report: null, commit: null }, stamp);
  return { ...planned, status: 'applied', report: writeReport(dir, stamp, reportText), commit: null };
}

/** Consolidate a memory directory when due (docs/architecture.md#dream-pipeline): gate, lock, plan, budget, keep previous versions, apply, report. */
export async function dream(options: DreamOptions): Promise<DreamResult> {
  const env = options.env ?? process.env;
  const at = clockNow(env);
  const dir = path.resolve(options.dir);
  const maxDelete = options.maxDelete ?? fieldDefault('dream', 'maxDelete');
  if (options.commit && !options.dryRun && !findGitRoot(dir)) throw new UsageError(messages.dreamCommitOutsideGit(dir));
  const gate = await checkGate(dir, {
    minHours: options.minHours ?? fieldDefault('dream', 'minHours'),
    minSessions: options.minSessions ?? fieldDefault('dream', 'minSessions'),
    now: at,
    projectRoot: options.projectRoot,
    sessionId: options.sessionId,
    env,
  });
  if (!gate.due && !options.force) return { ...unplanned(dir, gate, maxDelete), status: 'not-due' };
  if (!options.dryRun && lockHolder(dir, at) !== undefined) return { ...unplanned(dir, gate, maxDelete), status: 'running' };
  const facts = await gatherOutsideFacts(dir, gate, options, env);
  const plan = () => planRun(dir, gate, facts, options, at, maxDelete);

  if (options.dryRun) {
    const planned = await plan();
    return { ...planned, status: overBudget(planned.budget) ? 'over-budget' : 'planned', report: null, commit: null };
  }
  const lock = takeConsolidationLock(dir, at);
  if (!lock) return { ...unplanned(dir, gate, maxDelete), status: 'running' };
  try {
    const result = await withDirLock(dir, async (): Promise<DreamResult> => applyPlanned(dir, await plan(), lock.previousMtimeMs, at));
    if (result.status === 'over-budget') rollBackConsolidationLock(lock);
    else releaseConsolidationLock(lock);
    if (options.commit && result.status === 'applied') {
      const { commitDream } = await import('./commit.js');
      result.commit = await commitDream(dir, [...result.plan!.plan.changes.keys()], result.report!);
    }
    return result;
  } catch (error) {
    rollBackConsolidationLock(lock);
    throw error;
  }
}
