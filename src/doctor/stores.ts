import fs from 'node:fs';
import path from 'node:path';
import { doctorText as text, type Finding } from '../core/doctor-findings.js';
import { sanitizeProjectPath } from '../core/paths.js';
import { canonicalRoot, findGitRoot } from '../store/git-root.js';
import { hasObject, recordedCommits } from './history.js';
import { identities, originSession, remoteUrl, type ProjectFolder, type ProjectIdentity } from './projects.js';

/** Folders looked at when searching where a gone project lives now. */
const MAX_CANDIDATES = 500;
/** The user's usual roots looked in: the folders that hold the most recorded projects. */
const MAX_USUAL_ROOTS = 50;
/** Branches every repository has: they say nothing about which one a session was in. */
const COMMON_BRANCHES = new Set(['main', 'master', 'trunk', 'develop', 'HEAD']);

export interface StoreOptions {
  folders: ProjectFolder[];
  /** `<config home>/projects`. */
  projectsDir: string;
  /** The resolved memory directory and the project's canonical root. */
  dir: string;
  projectRoot: string;
  allProjects: boolean;
  searchRoots: string[];
}

/**
 * Split stores, collisions and orphans, from what each folder's sessions recorded; and the split
 * stores `--fix` may merge: those whose every session was this project's (a folder also written by
 * another project, or a clone elsewhere, is left to a person).
 */
export function storeFindings(options: StoreOptions): { findings: Finding[]; mergeable: string[] } {
  const identity = identities();
  const findings: Finding[] = [];
  const mergeable: string[] = [];
  const here = identity(options.projectRoot);
  const hasMemory = (folder: ProjectFolder) => folder.memories.length > 0 || folder.hasIndex;

  for (const folder of options.folders) {
    if (folder.memoryDir === options.dir || !hasMemory(folder)) continue;
    const why = splitReason(folder, options.projectRoot, here, identity);
    if (!why) continue;
    const onlyOurs = why.reason !== 'same-remote' && [...folder.cwds.keys()].every((cwd) => identity(cwd).root === options.projectRoot);
    if (onlyOurs) mergeable.push(folder.memoryDir);
    findings.push({
      id: 'split-store',
      severity: 'warning',
      message: text.splitStore(folder.path, folder.memories.length, why.sentence),
      evidence: { folder: folder.path, reason: why.reason, cwds: why.cwds, memories: folder.memories, index: folder.hasIndex },
      fix: onlyOurs ? text.fixSplitStore() : text.fixSplitStoreByHand(folder.memoryDir, options.dir),
    });
  }

  for (const folder of options.folders) {
    const byRoot = new Map<string, { cwds: string[]; sessions: string[] }>();
    for (const [cwd, sessions] of folder.cwds) {
      const who = identity(cwd);
      if (!who.exists) continue;
      const entry = byRoot.get(who.root) ?? { cwds: [], sessions: [] };
      entry.cwds.push(cwd);
      entry.sessions.push(...sessions);
      byRoot.set(who.root, entry);
    }
    if (byRoot.size < 2) continue;
    if (!options.allProjects && !byRoot.has(options.projectRoot) && folder.memoryDir !== options.dir) continue;
    const sessionRoot = new Map([...byRoot].flatMap(([root, entry]) => entry.sessions.map((session) => [session, root] as const)));
    const written = new Map<string, string[]>();
    const unknown: string[] = [];
    for (const memory of folder.memories) {
      const root = sessionRoot.get(originSession(path.join(folder.memoryDir, memory)) ?? '');
      if (root) written.set(root, [...(written.get(root) ?? []), memory]);
      else unknown.push(memory);
    }
    const roots = [...byRoot.keys()].sort();
    findings.push({
      id: 'collision',
      severity: 'error',
      message: text.collision(folder.path, roots.length),
      evidence: {
        folder: folder.path,
        projects: roots.map((root) => ({ root, cwds: byRoot.get(root)!.cwds.sort(), sessions: byRoot.get(root)!.sessions.length, memories: written.get(root) ?? [] })),
        memoriesOfNoKnownSession: unknown,
      },
      fix: text.fixCollision(roots),
    });
  }

  let candidates: string[] | undefined;
  const worktrees = worktreeLists();
  for (const folder of options.folders) {
    if (!hasMemory(folder) || folder.cwds.size === 0) continue;
    const cwds = [...folder.cwds.keys()].sort();
    if (cwds.some((cwd) => identity(cwd).exists)) continue;
    candidates ??= candidateProjects(options, usualRoots(options.folders, identity));
    const found = whereItLivesNow(folder, cwds, candidates, options.projectRoot, worktrees);
    if (!options.allProjects && found?.root !== options.projectRoot) continue;
    const count = folder.memories.length;
    findings.push({
      id: 'orphan',
      severity: 'warning',
      message: found ? text.orphanFound(folder.path, cwds[0]!, found.root, count) : text.orphan(folder.path, cwds[0]!, count),
      evidence: { folder: folder.path, cwds, memories: folder.memories, nowAt: found?.root ?? null, matchedBy: found?.by ?? null },
      fix: found ? text.fixOrphanMove(folder.path, found.root, found.root === options.projectRoot) : text.fixOrphanSearch(),
    });
  }
  return { findings, mergeable };
}

interface SplitReason {
  reason: 'default-folder' | 'ancestor' | 'worktree' | 'subdirectory' | 'same-project' | 'same-remote';
  sentence: string;
  cwds: string[];
}

/** Why a folder holds this project's memory, if it does. */
function splitReason(folder: ProjectFolder, root: string, here: ProjectIdentity, identity: (cwd: string) => ProjectIdentity): SplitReason | undefined {
  const ours = [...folder.cwds.keys()].filter((cwd) => identity(cwd).root === root).sort();
  if (folder.name === sanitizeProjectPath(root)) return { reason: 'default-folder', sentence: `the default folder of ${root}`, cwds: ours };
  if (ours.length > 0) {
    if (ancestors(root).some((dir) => sanitizeProjectPath(dir) === folder.name)) return { reason: 'ancestor', sentence: `a session in ${ours[0]} wrote into an ancestor's folder`, cwds: ours };
    const inside = ours.find((cwd) => cwd !== root);
    const worktree = inside === undefined ? undefined : findGitRoot(inside);
    if (worktree && worktree !== root && folder.name === sanitizeProjectPath(inside!)) {
      return { reason: 'worktree', sentence: `a session in the linked worktree ${worktree} wrote here`, cwds: ours };
    }
    if (inside && folder.name === sanitizeProjectPath(inside)) return { reason: 'subdirectory', sentence: `a session in the subdirectory ${inside} wrote here`, cwds: ours };
    return { reason: 'same-project', sentence: `sessions in ${ours[0]} wrote here`, cwds: ours };
  }
  if (!here.remote) return undefined;
  const clones = [...folder.cwds.keys()].filter((cwd) => identity(cwd).remote === here.remote).sort();
  if (clones.length > 0) return { reason: 'same-remote', sentence: `${identity(clones[0]!).root} is a clone of the same remote`, cwds: clones };
  return undefined;
}

function ancestors(dir: string): string[] {
  const found: string[] = [];
  for (let at = path.dirname(dir); at !== path.dirname(at); at = path.dirname(at)) found.push(at);
  return found;
}

/**
 * Where the user keeps projects: the folders that hold the projects of the recorded working
 * directories (still there or gone: the nearest folder that still exists), those holding most first.
 */
function usualRoots(folders: ProjectFolder[], identity: (cwd: string) => ProjectIdentity): string[] {
  const count = new Map<string, number>();
  for (const folder of folders) {
    for (const cwd of folder.cwds.keys()) {
      const who = identity(cwd);
      let at = path.dirname(who.root);
      if (!who.exists) while (at !== path.dirname(at) && !fs.existsSync(at)) at = path.dirname(at);
      if (at !== path.dirname(at)) count.set(at, (count.get(at) ?? 0) + 1);
    }
  }
  return [...count]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_USUAL_ROOTS)
    .map(([at]) => at);
}

/** Git repositories one level under the search roots and the usual roots, and this project. */
function candidateProjects(options: StoreOptions, usual: string[]): string[] {
  const places = new Set<string>([...options.searchRoots, ...usual]);
  const found = new Set<string>([options.projectRoot]);
  for (const place of places) {
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(place, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of [{ name: '', isDirectory: () => true }, ...entries]) {
      if (found.size >= MAX_CANDIDATES) break;
      if (!entry.isDirectory()) continue;
      const dir = path.join(place, entry.name);
      if (fs.existsSync(path.join(dir, '.git'))) {
        const root = findGitRoot(dir);
        if (root) found.add(canonicalRoot(root));
      }
    }
  }
  return [...found].sort();
}

/**
 * Where a gone project's sessions now belong: a repository that still lists the gone folder as one of
 * its worktrees, one that has a commit those sessions recorded (the same history: moved, renamed or
 * cloned again; among several, this project, else the one of the same name), one that has a branch those sessions were on, or one of the same name.
 */
function whereItLivesNow(folder: ProjectFolder, cwds: string[], candidates: string[], here: string, listsWorktree: (root: string, cwd: string) => boolean): { root: string; by: string } | undefined {
  for (const root of candidates) {
    if (cwds.some((cwd) => listsWorktree(root, cwd))) return { root, by: 'worktree' };
  }
  const commits = recordedCommits(folder.path, [...folder.cwds.values()].flat().sort());
  for (const commit of commits) {
    const having = candidates.filter((root) => hasObject(root, commit));
    const names = new Set(cwds.map((cwd) => path.basename(cwd)));
    const root = having.length === 1 ? having[0] : (having.find((r) => r === here) ?? onlyOne(having.filter((r) => names.has(path.basename(r)))));
    if (root) {
      const remote = remoteUrl(root);
      return { root, by: remote ? `commit ${commit}, remote ${remote}` : `commit ${commit}` };
    }
  }
  const branches = [...new Set(cwds.flatMap((cwd) => [...(folder.branches.get(cwd) ?? [])]))].filter((b) => !COMMON_BRANCHES.has(b));
  for (const root of candidates) {
    const branch = branches.find((b) => hasBranch(root, b));
    if (branch) return { root, by: `branch ${branch}` };
  }
  const names = new Set(cwds.map((cwd) => path.basename(cwd)));
  const named = candidates.filter((root) => names.has(path.basename(root)));
  if (named.length === 1) {
    const remote = remoteUrl(named[0]!);
    return { root: named[0]!, by: remote ? `name, remote ${remote}` : 'name' };
  }
  return undefined;
}

function onlyOne<T>(items: T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

/** Whether a repository lists a folder as a linked worktree (its `.git/worktrees/*`), each repository read once. */
function worktreeLists(): (root: string, cwd: string) => boolean {
  const worktreesOf = new Map<string, Set<string>>();
  return (root, cwd) => listsWorktree(worktreesOf, root, cwd);
}

function listsWorktree(worktreesOf: Map<string, Set<string>>, root: string, cwd: string): boolean {
  let known = worktreesOf.get(root);
  if (!known) {
    known = new Set();
    const admin = path.join(root, '.git', 'worktrees');
    let names: string[] = [];
    try {
      names = fs.readdirSync(admin);
    } catch {
      // no linked worktrees
    }
    for (const name of names) {
      try {
        known.add(path.dirname(fs.readFileSync(path.join(admin, name, 'gitdir'), 'utf8').trim()));
      } catch {
        // a worktree git has half removed
      }
    }
    worktreesOf.set(root, known);
  }
  return known.has(cwd);
}

function hasBranch(root: string, branch: string): boolean {
  const gitDir = path.join(root, '.git');
  if (fs.existsSync(path.join(gitDir, 'refs', 'heads', ...branch.split('/')))) return true;
  try {
    return fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8').includes(` refs/heads/${branch}\n`);
  } catch {
    return false;
  }
}
