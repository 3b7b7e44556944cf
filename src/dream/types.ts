import type { AgentView } from '../core/agent-view.js';
import type { GateState } from './gate.js';
import type { DreamAction, DreamPlan } from './plan.js';
import type { UnsavedRequest } from './signal.js';

export type DreamStatus = 'not-due' | 'running' | 'over-budget' | 'unchanged' | 'planned' | 'applied';

export interface DreamCounts {
  improved: number;
  merged: number;
  dates: number;
  /** Memories removed or cut back: contradicted, about code that is gone, or as the model proposed. */
  pruned: number;
  /** Statements marked **Stale?**: they cite code the repository no longer has. */
  stale: number;
  /** Index pointers to files that do not exist (not memories: nothing was behind them). */
  deadPointers: number;
  /** MEMORY.md changes (alone, it is no improved memory: a run may change only the index). */
  indexRewritten: boolean;
}

export interface DreamResult {
  dir: string;
  status: DreamStatus;
  gate: GateState;
  /** The git repository drift was checked against; null when none was (the memories belong to none). */
  repository: string | null;
  /** Set when the directory was planned (every status but not-due and running). */
  plan?: DreamPlan;
  actions: DreamAction[];
  /** Requests to remember, from the sessions since the last run, that no memory holds (left for `memdir extract`). */
  unsaved: UnsavedRequest[];
  engine: 'local' | 'claude';
  /** The claude engine's operations that failed validation: reported, never applied. */
  rejected: Array<{ operation: unknown; error: string }>;
  counts: DreamCounts;
  /** Unified diffs of every changed file. */
  diffs: string[];
  /** What the plan does to what the agent loads (set with plan). */
  view?: AgentView;
  /** The report file of an applied run. */
  report: string | null;
  /** The commit made with --commit. */
  commit: string | null;
  /** The largest share of memories allowed to go, and what the plan deletes. */
  budget: { maxDelete: number; deletes: number; memories: number };
}
