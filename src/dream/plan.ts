import { MemdirError } from '../core/errors.js';
import { INDEX_MAX_BYTES, INDEX_MAX_LINES } from '../core/limits.js';
import { messages } from '../core/messages.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { blocksToTopics, moveDetails } from '../restructure/phases/blocks.js';
import { absoluteDates } from '../restructure/phases/dates.js';
import { mergeNearDuplicates } from '../restructure/phases/merge.js';
import { readIndex } from '../restructure/phases/read-index.js';
import { renderIndex } from '../restructure/phases/render-index.js';
import { createState, SUB_INDEX, type PlanInputFile, type RefactorPlan } from '../restructure/phases/state.js';
import { lostLines, planKeepingWords } from '../restructure/verify.js';
import { loadIndex } from '../core/load-model.js';
import { planInPlace } from './in-place.js';
import { applyModelProposals, driftPhase, dropDeadPointers, mergeTrueDuplicates, resolveContradictions, type DreamAction, type DreamState, type ModelProposal, type RepoFacts } from './phases.js';

export type { DreamAction, RepoFacts } from './phases.js';

export interface DreamPlan {
  /** The changed files, dropped lines and refactor operations, as the refactor planner returns them. */
  plan: RefactorPlan;
  /** Every deletion and rewrite with its reason, in the order the phases made them. */
  actions: DreamAction[];
  /** Memories (topic files) before the run: what the delete budget is a share of. */
  memories: number;
  /** Memories this plan deletes (merged away, contradicted, drifted). */
  deletes: string[];
}

export interface DreamPlanOptions {
  anchor?: Date | undefined;
  repo?: RepoFacts | undefined;
  proposals?: readonly ModelProposal[];
  keepIndexLines?: ReadonlySet<number>;
  /** The full two-layer restructure (refactor's pipeline: content moved out, index re-rendered, near-duplicates merged, contradictions applied). */
  restructure?: boolean | undefined;
  /** Delete drifted lines instead of marking them stale. */
  pruneDrift?: boolean | undefined;
  /** The day a stale mark records. */
  today?: Date | undefined;
}

/**
 * The consolidation of a memory directory, deterministic and pure. By default it
 * changes only what a named problem requires: dead pointers, true duplicates, relative dates with
 * a trustworthy anchor, drift (marked), model proposals; contradictions are reported. On an index
 * the agent loads whole, the index keeps every line it does not fix (planInPlace); only an index
 * over the load limit is restructured into pointers and rendered. `restructure` runs refactor's
 * whole pipeline instead, for every index.
 */
export function planDream(files: Map<string, PlanInputFile>, options: DreamPlanOptions = {}): DreamPlan {
  const state = createState(files, { anchor: options.anchor, keepIndexLines: options.keepIndexLines });
  const memories = state.topics.size;
  const dream: DreamState = { plan: state, actions: [], deleted: new Map() };
  const loaded = loadIndex(state.indexText);
  const overLimit = files.has(INDEX_FILE) && (loaded.wasLineTruncated || loaded.wasByteTruncated);
  const render = options.restructure || overLimit;
  if (render) {
    readIndex(state);
    blocksToTopics(state);
    dropDeadPointers(dream, { keepRules: !options.restructure });
    moveDetails(state);
  }
  resolveContradictions(dream, Boolean(options.restructure));
  driftPhase(dream, options.repo, { prune: Boolean(options.pruneDrift), today: options.today ?? new Date() });
  applyModelProposals(dream, options.proposals ?? []);
  if (options.restructure) mergeNearDuplicates(state);
  else mergeTrueDuplicates(dream);
  absoluteDates(state);
  const plan = render ? renderIndex(state) : planInPlace(dream);
  for (const path of dream.deleted.keys()) plan.changes.set(path, null);
  // A file the run would have created and merged away instead has nothing on disk to delete.
  for (const [path, content] of plan.changes) if (content === null && !files.has(path)) plan.changes.delete(path);
  const actions = [...dream.actions];
  for (const op of plan.operations) {
    if (op.kind === 'merge' && options.restructure)
      actions.push({ kind: 'merge', path: op.from, effect: 'delete', reason: `merged into ${op.into} (${Math.round(op.similarity * 100)}% similar; every line kept there)` });
    else if (op.kind === 'rewrite-date') actions.push({ kind: 'date', path: op.path, effect: 'rewrite', reason: `"${op.from}" → ${op.to} (anchored at ${op.anchor})` });
    else if (op.kind === 'create' && !state.mergedAway.has(op.path))
      actions.push({ kind: 'index', path: op.path, effect: 'rewrite', reason: `created from ${op.source}: the index holds pointers only` });
    else if (op.kind === 'append') actions.push({ kind: 'index', path: op.path, effect: 'rewrite', reason: `${op.lines} line(s) appended from ${op.source}` });
  }
  if (render && plan.changes.has(INDEX_FILE)) {
    const why = options.restructure
      ? 'restructured as asked (--restructure or dream.restructure)'
      : `over what the agent loads (${loaded.lineCount} lines, ${loaded.byteCount.toLocaleString('en-US')} characters; it loads ${INDEX_MAX_LINES} lines, ${INDEX_MAX_BYTES.toLocaleString('en-US')} characters)`;
    actions.push({
      kind: 'index',
      path: INDEX_FILE,
      effect: 'rewrite',
      reason: `index ${why}: rewritten as one pointer per memory, within 200 lines / 25,000 characters, no line over ~200 characters`,
    });
  }
  const deletes = [...plan.changes].filter(([path, content]) => content === null && !SUB_INDEX.test(path)).map(([path]) => path);
  return { plan, actions, memories, deletes };
}

/** The dream plan, with what it would lose left where it is and reported (see planKeepingWords); refuses when that is not enough. */
export function planDreamKeepingWords(input: Map<string, PlanInputFile>, options: DreamPlanOptions = {}): DreamPlan {
  const texts = new Map([...input].map(([file, f]) => [file, f.text]));
  const { plan, lost } = planKeepingWords(
    input,
    (files, keepIndexLines) => planDream(files, { ...options, keepIndexLines }),
    (planned, files) =>
      lostLines(
        texts,
        planned.plan,
        [...files].filter(([, f]) => f.leftAlone).map(([file]) => file),
      ),
    messages.dreamKeptToKeepWords(),
  );
  const first = lost[0];
  if (first) throw new MemdirError(messages.dreamWouldLose(lost.length, `${first.file}:${first.line}`, first.text.trim().slice(0, 80)), { hint: messages.reportThisDirectory() });
  return plan;
}
