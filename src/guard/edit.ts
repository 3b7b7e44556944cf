/**
 * The text a PreToolUse write would leave, applied in memory as Claude Code applies it: Write
 * replaces the file, Edit replaces `old_string` (once, and only when it occurs once, unless
 * `replace_all`), MultiEdit applies its edits in order. Pure.
 */

/** The tools whose input names a file and its new text. NotebookEdit writes .ipynb cells only: never a memory. */
export const GUARDED_TOOLS = ['Write', 'Edit', 'MultiEdit'] as const;
export type GuardedTool = (typeof GUARDED_TOOLS)[number];

export interface ToolEdit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

const isString = (value: unknown): value is string => typeof value === 'string';

function asEdit(value: unknown): ToolEdit | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { old_string, new_string, replace_all } = value as Record<string, unknown>;
  if (!isString(old_string) || !isString(new_string)) return undefined;
  return { old_string, new_string, replace_all: replace_all === true };
}

/** The target file of a guarded tool's input, or undefined (another tool, or a shape Claude Code would refuse). */
export function targetFile(toolName: unknown, toolInput: unknown): string | undefined {
  if (!GUARDED_TOOLS.includes(toolName as GuardedTool) || typeof toolInput !== 'object' || toolInput === null) return undefined;
  const file = (toolInput as Record<string, unknown>).file_path;
  return isString(file) && file !== '' ? file : undefined;
}

/** One Edit on `text` (undefined: no file yet), or undefined when Claude Code itself would refuse it. */
function applyEdit(text: string | undefined, edit: ToolEdit): string | undefined {
  // Claude Code's Edit creates a file when old_string is empty and the file does not exist.
  if (text === undefined) return edit.old_string === '' ? edit.new_string : undefined;
  if (edit.old_string === '' || edit.old_string === edit.new_string) return undefined;
  const first = text.indexOf(edit.old_string);
  if (first === -1) return undefined;
  if (edit.replace_all) return text.split(edit.old_string).join(edit.new_string);
  if (text.indexOf(edit.old_string, first + 1) !== -1) return undefined;
  return text.slice(0, first) + edit.new_string + text.slice(first + edit.old_string.length);
}

/**
 * The file's text after the tool runs, or undefined when the input would not change it as Claude
 * Code runs it (a mistyped input, an `old_string` that does not match): Claude Code fails such an
 * edit itself, so the guard lets it through.
 */
export function proposedText(toolName: GuardedTool, toolInput: Record<string, unknown>, current: string | undefined): string | undefined {
  if (toolName === 'Write') return isString(toolInput.content) ? toolInput.content : undefined;
  if (toolName === 'Edit') {
    const edit = asEdit(toolInput);
    return edit ? applyEdit(current, edit) : undefined;
  }
  if (!Array.isArray(toolInput.edits) || toolInput.edits.length === 0) return undefined;
  let text = current;
  for (const raw of toolInput.edits) {
    const edit = asEdit(raw);
    if (!edit) return undefined;
    text = applyEdit(text, edit);
    if (text === undefined) return undefined;
  }
  return text;
}
