import { MemdirError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { blocksToTopics, moveDetails } from '../refactor/phases/blocks.js';
import { absoluteDates } from '../refactor/phases/dates.js';
import { mergeNearDuplicates } from '../refactor/phases/merge.js';
import { readIndex } from '../refactor/phases/read-index.js';
import { renderIndex } from '../refactor/phases/render-index.js';
import { createState, SUB_INDEX, type PlanInputFile, type RefactorPlan } from '../refactor/phases/state.js';
import { lostLines, planKeepingWords } from '../refactor/verify.js';
import { applyModelProposals, dropDeadPointers, dropDrift, resolveContradictions, type DreamAction, type DreamState, type ModelProposal, type RepoFacts } from './phases.js';

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

/**
 * The consolidation of a memory directory (DESIGN §2.5), deterministic and
 * pure: the index read (inline content moved to topic files so the index
 * holds pointers only), dead pointers dropped, contradictions resolved
 * (newer wins), statements about deleted code dropped, near-duplicates
 * merged, dates made absolute, and the index rendered within the limits the
 * agent loads (orphans indexed).
 */
export function planDream(
  files: Map<string, PlanInputFile>,
  options: { anchor?: Date | undefined; repo?: RepoFacts | undefined; proposals?: readonly ModelProposal[]; keepIndexLines?: ReadonlySet<number> } = {},
): DreamPlan {
  const state = createState(files, { anchor: options.anchor, keepIndexLines: options.keepIndexLines });
  const memories = state.topics.size;
  const dream: DreamState = { plan: state, actions: [], deleted: new Map() };
  readIndex(state);
  blocksToTopics(state);
  dropDeadPointers(dream);
  moveDetails(state);
  resolveContradictions(dream);
  dropDrift(dream, options.repo);
  applyModelProposals(dream, options.proposals ?? []);
  mergeNearDuplicates(state);
  absoluteDates(state);
  const plan = renderIndex(state);
  for (const path of dream.deleted.keys()) plan.changes.set(path, null);
  const actions = [...dream.actions];
  for (const op of plan.operations) {
    if (op.kind === 'merge') actions.push({ kind: 'merge', path: op.from, effect: 'delete', reason: `merged into ${op.into} (${Math.round(op.similarity * 100)}% similar; every line kept there)` });
    else if (op.kind === 'rewrite-date') actions.push({ kind: 'date', path: op.path, effect: 'rewrite', reason: `"${op.from}" → ${op.to} (anchored at ${op.anchor})` });
    else if (op.kind === 'create') actions.push({ kind: 'index', path: op.path, effect: 'rewrite', reason: `created from ${op.source}: the index holds pointers only` });
    else if (op.kind === 'append') actions.push({ kind: 'index', path: op.path, effect: 'rewrite', reason: `${op.lines} line(s) appended from ${op.source}` });
  }
  if (plan.changes.has(INDEX_FILE))
    actions.push({ kind: 'index', path: INDEX_FILE, effect: 'rewrite', reason: 'index rewritten: one pointer per memory, within 200 lines / 25,000 characters, lines ≤ 150 characters' });
  const deletes = [...plan.changes].filter(([path, content]) => content === null && !SUB_INDEX.test(path)).map(([path]) => path);
  return { plan, actions, memories, deletes };
}

/** The dream plan, with what it would lose left where it is and reported (see planKeepingWords); refuses when that is not enough. */
export function planDreamKeepingWords(input: Map<string, PlanInputFile>, options: Parameters<typeof planDream>[1] = {}): DreamPlan {
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
  if (first) throw new MemdirError(messages.dreamWouldLose(lost.length, `${first.file}:${first.line}`, first.text.trim().slice(0, 80)), { hint: 'please report this with the directory' });
  return plan;
}
