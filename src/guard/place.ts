/**
 * Where a write lands, as the file system will take it: the path the tool input names, read
 * lexically (`..` collapsed, as Node's path functions do) and as the operating system follows it
 * (symlinks first, then `..`), with links to files not there yet followed. The guard's two paths
 * share it: the outside-write test (src/fast/guard.ts) and locating a write in the directory (hook.ts).
 */
import fs from 'node:fs';
import path from 'node:path';

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

/** realpath of `target`, or of its deepest existing folder plus the rest (a dangling link followed); undefined when it cannot be read. */
export function realpathOfNearest(target: string, links = 0): string | undefined {
  const missing: string[] = [];
  for (let current = target; ; ) {
    try {
      return path.join(fs.realpathSync.native(current), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
      // A link to a file not there yet: a write through it creates that file.
      if (links < 40 && fs.lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink()) {
        return realpathOfNearest(path.join(path.resolve(path.dirname(current), fs.readlinkSync(current)), ...missing.reverse()), links + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return undefined;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** The paths a tool's `file_path` can land on. */
export interface WritePaths {
  /** Resolved lexically against the session's working directory. */
  lexical: string;
  /** Where the file system takes it (each reading of the path; undefined where a folder on the way cannot be read). */
  real: (string | undefined)[];
}

export function writePaths(file: string, cwd: string): WritePaths {
  const lexical = path.resolve(cwd, file);
  // As written: the kernel follows a link before the `..` after it, which path.resolve drops first.
  const written = path.isAbsolute(file) ? file : `${cwd}${path.sep}${file}`;
  const real = [realpathOfNearest(lexical)];
  if (written !== lexical) real.push(realpathOfNearest(written));
  return { lexical, real };
}

/**
 * A path folded for a comparison that may only err towards "inside": case (a case-insensitive
 * volume, the default on macOS and Windows, takes `MEMORY.MD` for `MEMORY.md`) and Unicode
 * normalization (HFS+ stores names decomposed).
 */
const fold = (file: string) => file.toUpperCase().toLowerCase().normalize('NFC');

function underFolded(folder: string, file: string): boolean {
  const root = fold(folder).replace(/[\\/]+$/, '');
  const candidate = fold(file);
  return candidate === root || candidate.startsWith(`${root}${path.sep}`) || candidate.startsWith(`${root}/`);
}

const isMarkdown = (file: string) => fold(file).endsWith('.md');

/**
 * Whether a write cannot reach a memory: no reading of its path names a Markdown file, or none lies
 * in any of `folders` (the bounds of the memory directory: store/memory-bounds.ts) however they are
 * reached. `folders` undefined: only the name is tested. False whenever a path cannot be read.
 */
export function surelyNoMemory(paths: WritePaths, folders?: readonly string[]): boolean {
  const targets = [paths.lexical, ...paths.real];
  if (targets.some((target) => target === undefined)) return false;
  if (!targets.some((target) => isMarkdown(target!))) return true;
  if (folders === undefined) return false;
  const roots: string[] = [];
  for (const folder of folders) {
    const real = realpathOfNearest(folder);
    if (real === undefined) return false;
    roots.push(folder, real);
  }
  return !targets.some((target) => roots.some((root) => underFolded(root, target!)));
}
