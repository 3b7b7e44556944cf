import { absoluteDates } from './phases/dates.js';
import { blocksToTopics, keepDeadPointers, moveDetails } from './phases/blocks.js';
import { repairFrontmatter, reportMissingWhyHow } from './phases/frontmatter.js';
import { mergeNearDuplicates } from './phases/merge.js';
import { readIndex } from './phases/read-index.js';
import { renderIndex } from './phases/render-index.js';
import { splitLongTopics } from './phases/split.js';
import { createState, type PlanInputFile, type PlanOptions, type RefactorPlan } from './phases/state.js';

export type { BlockProposal, IndexStats, Operation, PlanInputFile, PlanOptions, RefactorPlan } from './phases/state.js';
export { splitAtHeadings } from './phases/split.js';

/** The deterministic restructuring of a memory directory (DESIGN §2.2), phase by phase. Pure. */
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
