import type { LintResult } from '../run.js';
import type { Rule } from '../types.js';

export interface FormatContext {
  /** How a file is shown: relative to cwd when below it, else absolute. */
  display(dir: string, file: string): string;
  /** Path of a file relative to the repository root (SARIF), or an absolute file URI when outside. */
  artifactUri(dir: string, file: string): { uri: string; uriBaseId?: string };
  rules: readonly Rule[];
  /** URI of a rule's documentation page. */
  docsUri(rule: Rule): string;
  colors: { red(s: string): string; yellow(s: string): string; blue(s: string): string; dim(s: string): string; bold(s: string): string; underline(s: string): string };
  toolVersion: string;
}

/** Formatters are pure: results in, text out. */
export type Formatter = (results: LintResult[], context: FormatContext) => string;
