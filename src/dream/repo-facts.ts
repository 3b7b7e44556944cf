import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { canonicalRoot, findGitRoot } from '../store/git-root.js';
import { resolveMemoryDir, type Resolution } from '../store/resolve.js';
import { citationKey, flagSpellings, type Citation } from './drift.js';
import type { RepoFacts } from './phases.js';

/*
 * What git says about the project, for drift. Precision over recall: a citation drifted only
 * when the repository (a git work tree) does not have it now AND its history shows it had it —
 * a name git never knew is left alone (a library's function, an environment variable, another
 * project's script). Symbols and flags: `git grep -w -F` over the tracked files, then
 * `git log -S` (pickaxe) for the commit that removed it. Scripts: every tracked package.json's
 * `scripts`; make targets: tracked Makefiles (not judged when one includes others or has pattern
 * rules: the targets are not all written down); just recipes: tracked justfiles (not judged with
 * imports or modules). Outside git, or on a git failure, undefined: drift is not judged.
 */

/** At most this many missing names are looked up in the history (one `git log -S` each). */
const HISTORY_LOOKUPS = 20;

interface GitResult {
  code: number;
  stdout: string;
}

function git(root: string, args: string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    // A GIT_DIR or GIT_INDEX_FILE of a hook that runs dream would point git at another repository.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^GIT_/i.test(key)));
    const child = spawn('git', args, { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
}

async function gitOk(root: string, args: string[]): Promise<string> {
  const result = await git(root, args);
  if (result.code !== 0) throw new Error(`git ${args[0]} exited ${result.code}`);
  return result.stdout;
}

/** The last commit whose diff changed how often `needle` occurs in `paths` (where it was added or removed), if any. */
async function pickaxe(root: string, needle: string, paths: string[] = []): Promise<string | undefined> {
  const out = await gitOk(root, ['log', '-1', '--format=%h', '-S', needle, '--', ...paths]);
  return out.trim() || undefined;
}

const PACKAGE_JSONS = [':(glob)**/package.json'];
const MAKEFILES = [':(glob)**/Makefile', ':(glob)**/makefile', ':(glob)**/GNUmakefile', ':(glob)**/*.mk'];
const JUSTFILES = [':(glob)**/justfile', ':(glob)**/Justfile', ':(glob)**/.justfile'];

async function trackedTexts(root: string, pathspecs: string[]): Promise<string[]> {
  const files = (await gitOk(root, ['ls-files', '-z', '--', ...pathspecs])).split('\0').filter(Boolean);
  return files.map((file) => {
    try {
      return fs.readFileSync(path.join(root, file), 'utf8');
    } catch {
      return '';
    }
  });
}

/** Script names of every tracked package.json; undefined when one cannot be read as JSON. */
async function scriptNames(root: string): Promise<Set<string> | undefined> {
  const names = new Set<string>();
  for (const text of await trackedTexts(root, PACKAGE_JSONS)) {
    try {
      const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
      if (scripts && typeof scripts === 'object') for (const name of Object.keys(scripts)) names.add(name);
    } catch {
      return undefined;
    }
  }
  return names;
}

/** Targets of the tracked Makefiles; undefined when they are not all written down (includes, pattern rules). */
async function makeTargets(root: string): Promise<Set<string> | undefined> {
  const targets = new Set<string>();
  for (const text of await trackedTexts(root, MAKEFILES)) {
    if (/^\s*-?s?include\s/m.test(text)) return undefined;
    for (const match of text.matchAll(/^([^\s:#=][^:=#\n]*?)\s*::?(?!=)/gm)) {
      for (const target of match[1]!.split(/\s+/)) {
        if (target.includes('%') || target.includes('$')) return undefined;
        targets.add(target);
      }
    }
  }
  return targets;
}

/** Recipes and aliases of the tracked justfiles; undefined with imports or modules. */
async function justRecipes(root: string): Promise<Set<string> | undefined> {
  const recipes = new Set<string>();
  for (const text of await trackedTexts(root, JUSTFILES)) {
    if (/^\s*(?:import|mod)\b/m.test(text)) return undefined;
    for (const match of text.matchAll(/^@?([A-Za-z_][\w-]*)[^:=\n]*:(?!=)/gm)) recipes.add(match[1]!);
    for (const match of text.matchAll(/^alias\s+([A-Za-z_][\w-]*)\s*:=/gm)) recipes.add(match[1]!);
  }
  return recipes;
}

/** Which of `needles` git grep finds as whole words in the tracked files. */
async function grepWords(root: string, needles: string[]): Promise<Set<string>> {
  if (needles.length === 0) return new Set();
  const result = await git(root, ['grep', '-I', '-F', '-w', '-o', '-h', '--no-color', ...needles.flatMap((n) => ['-e', n])]);
  if (result.code > 1) throw new Error('git grep failed');
  return new Set(result.stdout.split('\n').filter(Boolean));
}

/** The symbols, flags and commands cited that the repository had and no longer has: citationKey → how git knows. */
async function goneCitations(root: string, cited: readonly Citation[]): Promise<Map<string, string>> {
  const unique = new Map(cited.filter((c) => c.kind !== 'file').map((c) => [citationKey(c), c]));
  const words = [...unique.values()].filter((c) => c.kind === 'symbol' || c.kind === 'flag');
  const found = await grepWords(root, [...new Set(words.flatMap((c) => (c.kind === 'flag' ? flagSpellings(c.name) : [c.name])))]);
  const [scripts, targets, recipes] = await Promise.all([scriptNames(root), makeTargets(root), justRecipes(root)]);

  /** The history lookup of one missing citation, undefined when it is not judged or still present. */
  const missing: Array<{ key: string; lookup: () => Promise<string | undefined> }> = [];
  for (const [key, c] of unique) {
    if (c.kind === 'symbol' || c.kind === 'flag') {
      const spellings = c.kind === 'flag' ? flagSpellings(c.name) : [c.name];
      if (spellings.some((s) => found.has(s))) continue;
      missing.push({
        key,
        lookup: async () => {
          for (const spelling of spellings) {
            const commit = await pickaxe(root, spelling);
            if (commit) return `git grep finds no ${spelling}; removed in ${commit}`;
          }
          return undefined;
        },
      });
    } else if (c.kind === 'script' && scripts && !scripts.has(c.name)) {
      missing.push({ key, lookup: async () => await pickaxe(root, `"${c.name}":`, PACKAGE_JSONS).then((h) => h && `no "${c.name}" script in any package.json; removed in ${h}`) });
    } else if (c.kind === 'make' && targets && !targets.has(c.name)) {
      missing.push({ key, lookup: async () => await pickaxe(root, `${c.name}:`, MAKEFILES).then((h) => h && `no make target "${c.name}"; removed in ${h}`) });
    } else if (c.kind === 'just' && recipes && !recipes.has(c.name)) {
      missing.push({ key, lookup: async () => await pickaxe(root, c.name, JUSTFILES).then((h) => h && `no just recipe "${c.name}"; removed in ${h}`) });
    }
  }
  const gone = new Map<string, string>();
  for (const { key, lookup } of missing.slice(0, HISTORY_LOOKUPS)) {
    const detail = await lookup();
    if (detail) gone.set(key, detail);
  }
  return gone;
}

/** The canonical root of the git repository holding `start`, if any. */
function repositoryOf(start: string | undefined): string | null {
  const root = start && findGitRoot(start);
  return root ? canonicalRoot(root) : null;
}

/**
 * The git repository a memory directory belongs to — the only one its drift is checked against.
 * Found without --dir: the repository of the project it was resolved for. With --dir: the
 * project's, when the directory is the one the project resolves to anyway; else a repository
 * holding the directory. Null when there is none: the repository a command happens to be started
 * in says nothing about memories kept elsewhere.
 */
export function memoryRepository(dir: string, resolution: Pick<Resolution, 'rule' | 'projectRoot'>, env: NodeJS.ProcessEnv = process.env): string | null {
  const project = resolution.projectRoot;
  if (resolution.rule !== 'flag') return repositoryOf(project);
  if (project) {
    try {
      if (path.resolve(resolveMemoryDir({ cwd: project, env }).dir) === path.resolve(dir)) return repositoryOf(project);
    } catch {
      // settings that do not resolve say nothing about where this directory belongs
    }
  }
  return repositoryOf(dir);
}

/**
 * The project's tracked files, the files its history deleted, and which of the cited symbols,
 * flags and commands it had and no longer has. Outside git, or on a git failure, undefined.
 */
export async function readRepoFacts(root: string | null, cited: readonly Citation[] = []): Promise<RepoFacts | undefined> {
  if (!root) return undefined;
  try {
    const files = new Set((await gitOk(root, ['ls-files', '-z'])).split('\0').filter(Boolean));
    const deleted = new Set((await gitOk(root, ['log', '--diff-filter=D', '--name-only', '--format=', '-z'])).split(/[\0\n]/).filter((f) => f && !files.has(f)));
    return { files, deleted, gone: await goneCitations(root, cited) };
  } catch {
    return undefined;
  }
}
