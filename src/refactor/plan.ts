import { absoluteDates } from '../restructure/phases/dates.js';
import { blocksToTopics, keepDeadPointers, moveDetails } from '../restructure/phases/blocks.js';
import { repairFrontmatter, reportMissingWhyHow } from '../restructure/phases/frontmatter.js';
import { mergeNearDuplicates } from '../restructure/phases/merge.js';
import { readIndex } from '../restructure/phases/read-index.js';
import { renderIndex } from '../restructure/phases/render-index.js';
import { splitLongTopics } from '../restructure/phases/split.js';
import { createState, type PlanInputFile, type PlanOptions, type RefactorPlan } from '../restructure/phases/state.js';
import { type Loss, lostLines, lostWords, planKeepingWords } from '../restructure/verify.js';
import { messages } from '../core/messages.js';

export type { BlockProposal, IndexStats, Operation, PlanInputFile, PlanOptions, RefactorPlan } from '../restructure/phases/state.js';
export { splitAtHeadings } from '../restructure/phases/split.js';

/** The deterministic restructuring of a memory directory (docs/architecture.md#plan-engine-and-the-nothing-lost-check), phase by phase. Pure. */
export function planRefactor(files: Map<string, PlanInputFile>, options: PlanOptions = {}): RefactorPlan {
  const state = createState(files, options);
  readIndex(state);
  blocksToTopics(state);
  keepDeadPointers(state);
  moveDetails(state);
  repairFrontmatter(state);
  mergeNearDuplicates(state);
  absoluteDates(state);
  splitLongTopics(state);
  reportMissingWhyHow(state);
  return renderIndex(state);
}

/** The refactor plan with what it would lose left where it is (see planKeepingWords); `lost` is what that could not save. */
export function planRefactorKeepingWords(input: Map<string, PlanInputFile>, options: PlanOptions = {}, first?: RefactorPlan): { plan: RefactorPlan; lost: Loss[] } {
  const before = new Map([...input].map(([file, f]) => [file, f.text]));
  return planKeepingWords(
    input,
    (files, keepIndexLines) => planRefactor(files, { ...options, keepIndexLines }),
    (planned, files) => [
      ...lostLines(
        before,
        planned,
        [...files].filter(([, f]) => f.leftAlone).map(([file]) => file),
      ),
      ...lostWords(before, planned),
    ],
    messages.keptToKeepWords(),
    first,
  );
}
