import type { ConfigurableRule, Severity } from '../config/validate.js';
import type { MemoryDirModel } from '../core/dir-model.js';

export type { Severity };

/** Replace text[start, end) of a file with `text`; a fix is a list of these, applied by one engine. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

export interface Fix {
  /** File the edits apply to, relative to the memory directory (may not exist yet: MEMORY.md). */
  file: string;
  edits: TextEdit[];
}

export interface Finding {
  ruleId: string;
  ruleName: string;
  severity: Severity;
  /** Relative to the memory directory, `/` separators. */
  file: string;
  line: number;
  column: number;
  /** Last line of a finding about several lines (an inline block of the index). */
  endLine?: number;
  message: string;
  fix?: Fix;
}

/** What a rule reports; the engine adds rule id, name and severity (`atMostWarning`: a less certain finding of an error rule is a warning). */
export type Report = Omit<Finding, 'ruleId' | 'ruleName' | 'severity'> & { atMostWarning?: boolean };

export interface RuleExample {
  /** A tiny memory directory: relative path → content. */
  files: Record<string, string>;
  /** Frontmatter `modified` stands in for mtime, so examples are deterministic. */
  note?: string;
  /** The directory lives in a git repository (its files are tracked). */
  inRepository?: boolean;
}

/** Facts beyond the files that a rule reads; the runner gathers them only when an enabled rule needs them. */
export type RuleNeed = 'repoFiles' | 'commitTimes';

export interface Rule extends ConfigurableRule {
  description: string;
  severity: Severity;
  fixable: boolean;
  needs?: RuleNeed[];
  examples: { valid: RuleExample[]; invalid: RuleExample[] };
  /** `options` are the rule's declared options with the config's values applied. */
  check(model: MemoryDirModel, report: (finding: Report) => void, options: Record<string, unknown>): void;
}
