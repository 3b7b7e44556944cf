/** The events memdir installs Claude Code hooks for. */
export type HookEvent = 'SessionStart' | 'UserPromptSubmit' | 'PreToolUse' | 'Stop' | 'SessionEnd';

/**
 * One hook of a project (a Claude Code settings entry, or the git pre-commit hook) as `hooks status`
 * reports it and `doctor` runs it: hooks finds the rows, the entry layer hands them to doctor.
 */
export interface HookRow {
  hook: string;
  file: string;
  command: string;
  owner: 'memdir' | 'other';
  /** Whether it would run as Claude Code or git runs it; undefined when it cannot be checked without running it. */
  runs?: boolean | undefined;
  detail?: string | undefined;
  /** The file that runs (the program, or the script node is given), when found. */
  program?: string | undefined;
  /** Claude Code hooks: the entry's `timeout` in seconds, when set. */
  timeout?: number | undefined;
  /** Claude Code hooks: the event. */
  event?: HookEvent | undefined;
  /** The git hook: memdir's block, when it is exactly what install writes. */
  block?: string | undefined;
}
