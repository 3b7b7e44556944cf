import type { ConfigurableRule, Severity } from '../config/validate.js';
import type { MemoryIndex } from '../core/memory-index.js';
import type { MemoryFields, ParseProblem, TopicFile } from '../core/topic-file.js';

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
  message: string;
  fix?: Fix;
}

/** What a rule reports; the engine adds rule id, name and severity. */
export type Report = Omit<Finding, 'ruleId' | 'ruleName' | 'severity'>;

/** A file of the directory as rules see it. */
export interface SourceFile {
  path: string;
  text: string;
  mtimeMs: number;
  /** Last commit time when the file is tracked and unmodified. */
  commitTimeMs?: number | undefined;
  /** Offsets where each line starts (line n starts at lineStarts[n - 1]). */
  lineStarts: number[];
}

export interface TopicSource extends SourceFile {
  topic: TopicFile;
  problems: ParseProblem[];
  fields: MemoryFields;
}

export interface IndexSource extends SourceFile {
  index: MemoryIndex;
}

/** A memory directory parsed for linting: pure data, no I/O behind it. */
export interface MemoryDirModel {
  root: string;
  index: IndexSource | undefined;
  topics: TopicSource[];
  /** Every file present (relative paths), for pointer checks. */
  files: ReadonlySet<string>;
  /** Symlinks whose target leaves the directory. */
  escapingLinks: ReadonlySet<string>;
  /** Files memdir leaves alone (not decodable as text, or too large), with the reason. */
  unreadable: Array<{ path: string; message: string }>;
  /** Files decoded for reading that memdir never writes back (UTF-16), with the reason: no fix targets them. */
  readOnly: ReadonlyMap<string, string>;
  /** Files tracked in the project repository (relative to its root), for derivable-content checks. */
  repoFiles: ReadonlySet<string>;
  skipIndex: boolean;
}

export interface RuleExample {
  /** A tiny memory directory: relative path → content. */
  files: Record<string, string>;
  /** Frontmatter `modified` stands in for mtime, so examples are deterministic. */
  note?: string;
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
