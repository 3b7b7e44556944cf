import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { writeFileAtomic } from '../store/atomic.js';
import { renderTemplate } from '../store/templates.js';
import { messages } from '../core/messages.js';

/**
 * The git pre-commit hook: a marked block of shell, put where git (or husky)
 * will run it, cooperating with whatever hook is already there.
 */

export const BLOCK_START = '# >>> memdir pre-commit >>>';
export const BLOCK_END = '# <<< memdir pre-commit <<<';
const CHAINED_SUFFIX = '.memdir-chained';
const SHEBANG = '#!/bin/sh\n';

export interface GitHookPlace {
  /** The script git runs (or husky's user script). */
  file: string;
  /** How it was found: husky v9, another core.hooksPath, or the repository's own hooks folder. */
  kind: 'husky' | 'hooksPath' | 'git';
}

function git(cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The worktree's top folder, or undefined outside git. */
export function worktreeRoot(cwd: string): string | undefined {
  return git(cwd, ['rev-parse', '--show-toplevel']) || undefined;
}

/** Where the pre-commit hook of the repository around `cwd` lives (shared by all its worktrees). */
export function gitHookPlace(cwd: string): GitHookPlace {
  const top = worktreeRoot(cwd);
  if (!top) throw new UsageError(messages.gitHookOutsideRepository());
  // Git's own answer: core.hooksPath with `~/` expanded as git expands it, or the common git dir's hooks.
  const dir = git(top, ['rev-parse', '--path-format=absolute', '--git-path', 'hooks']);
  if (!dir) throw new UsageError(messages.gitHookNoGitDir());
  if (!git(top, ['config', 'core.hooksPath'])) return { file: path.join(dir, 'pre-commit'), kind: 'git' };
  // husky v9 points git at .husky/_ (its generated stubs) and runs the user's .husky/pre-commit.
  if (path.basename(dir) === '_' && path.basename(path.dirname(dir)) === '.husky') return { file: path.join(path.dirname(dir), 'pre-commit'), kind: 'husky' };
  return { file: path.join(dir, 'pre-commit'), kind: 'hooksPath' };
}

/** The block for a hook that runs `command` (a shell command prefix), or finds memdir itself when none is given. */
export function hookBlock(command: string | undefined): string {
  const find = command === undefined ? renderTemplate('hooks/find-memdir.sh', {}) : '';
  return renderTemplate('hooks/pre-commit.sh', { command: command ?? '"$memdir_command"' }).replace(/^\{\{find\}\}\n/m, () => find);
}

/** The block's span in a script, whole lines from the start marker to the end marker. */
function blockSpan(text: string): { start: number; end: number } | undefined {
  const start = text.indexOf(BLOCK_START);
  if (start < 0 || (start > 0 && text[start - 1] !== '\n')) return undefined;
  const endMarker = text.indexOf(BLOCK_END, start);
  if (endMarker < 0) return undefined;
  const lineEnd = text.indexOf('\n', endMarker);
  return { start, end: lineEnd < 0 ? text.length : lineEnd + 1 };
}

/** A script the block can go into: husky's files, and POSIX-like shell scripts. */
function isShellScript(text: string, kind: GitHookPlace['kind']): boolean {
  if (kind === 'husky') return true;
  const first = text.split('\n', 1)[0]!;
  return /^#!.*\b(sh|bash|dash|zsh|ksh)\b/.test(first);
}

export interface GitHookState {
  place: GitHookPlace;
  exists: boolean;
  /** memdir's block is in the script. */
  installed: boolean;
  /** The script holds something besides memdir's block (another tool's or the user's hook). */
  others: boolean;
  /** The command the block runs, when set with --command. */
  command?: string | undefined;
  /** The block, when it is exactly what install writes for its command (no one edited it). */
  block?: string | undefined;
}

export function gitHookState(cwd: string): GitHookState {
  const place = gitHookPlace(cwd);
  let text: string | undefined;
  try {
    text = fs.readFileSync(place.file, 'utf8');
  } catch {
    return { place, exists: false, installed: false, others: false };
  }
  const span = blockSpan(text);
  const rest = span ? text.slice(0, span.start) + text.slice(span.end) : text;
  const chained = fs.existsSync(place.file + CHAINED_SUFFIX);
  const block = span ? text.slice(span.start, span.end) : undefined;
  const found = block === undefined ? undefined : /^ {2}(.+) lint --staged$/m.exec(block)?.[1];
  const command = found === '"$memdir_command"' ? undefined : found;
  return {
    place,
    exists: true,
    installed: span !== undefined,
    others: chained || (rest.trim() !== '' && rest !== SHEBANG),
    command,
    ...(block !== undefined && block === hookBlock(command) ? { block } : {}),
  };
}

/** Adds the block; true when the script changed. */
export function installGitHook(cwd: string, command: string | undefined): { changed: boolean; place: GitHookPlace } {
  const place = gitHookPlace(cwd);
  const block = hookBlock(command);
  fs.mkdirSync(path.dirname(place.file), { recursive: true });
  let text: string | undefined;
  try {
    text = fs.readFileSync(place.file, 'utf8');
  } catch {
    text = undefined;
  }
  if (text !== undefined && blockSpan(text)) return { changed: false, place };
  if (text === undefined) {
    fs.writeFileSync(place.file, place.kind === 'husky' ? block : SHEBANG + block, { mode: 0o755 });
  } else if (isShellScript(text, place.kind)) {
    // First, after the shebang: a script that exits early must not skip memdir's check.
    const at = text.startsWith('#!') ? text.indexOf('\n') + 1 || text.length : 0;
    writeFileAtomic(place.file, text.slice(0, at) + block + text.slice(at));
  } else {
    // Not shell (a binary, Python, node): move it aside and run it after the check.
    fs.renameSync(place.file, place.file + CHAINED_SUFFIX);
    fs.writeFileSync(place.file, SHEBANG + block + renderTemplate('hooks/chain.sh', {}), { mode: 0o755 });
  }
  return { changed: true, place };
}

/** Removes what installGitHook added; true when something was removed. */
export function uninstallGitHook(cwd: string): { changed: boolean; place: GitHookPlace } {
  const place = gitHookPlace(cwd);
  let text: string;
  try {
    text = fs.readFileSync(place.file, 'utf8');
  } catch {
    return { changed: false, place };
  }
  const span = blockSpan(text);
  if (!span) return { changed: false, place };
  const rest = text.slice(0, span.start) + text.slice(span.end);
  const chained = place.file + CHAINED_SUFFIX;
  if (fs.existsSync(chained) && rest === SHEBANG + renderTemplate('hooks/chain.sh', {})) fs.renameSync(chained, place.file);
  // A script memdir wrote goes; a link (to a dotfiles hook) is the user's, and keeps what is left.
  else if ((rest === '' || rest === SHEBANG) && !fs.lstatSync(place.file).isSymbolicLink()) fs.rmSync(place.file);
  else writeFileAtomic(place.file, rest);
  return { changed: true, place };
}
