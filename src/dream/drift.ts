/*
 * What a memory line cites that the repository can be asked about (pure): file paths, and in
 * code spans, symbols (`parseConfig()`, `UserService`, `MAX_RETRIES`), CLI flags (`--dry-run`)
 * and commands (`npm run X`, `pnpm X`, `make X`, `just X`, `./scripts/x`, `bin/x`). Only what
 * looks like code is a citation: a plain word in a code span (`main`, `users`) is not, nor is
 * anything outside a code span except a path with a folder and an extension. Whether a citation
 * drifted is git's answer (repo-facts.ts); this module only says what to ask.
 */

export type CitationKind = 'file' | 'symbol' | 'flag' | 'script' | 'make' | 'just';

export interface Citation {
  kind: CitationKind;
  /** As the memory writes it. */
  text: string;
  /** What git is asked about: a path, an identifier, a flag without dashes, a script, target or recipe name. */
  name: string;
}

/** Repository paths a line cites: `a/b.ts`, src/x/y.py (a slash and an extension). */
const CITED_PATH = /`?((?:[\w.-]+\/)+[\w.-]+\.[A-Za-z0-9]+)(?::\d+)?`?/g;
const CODE_SPAN = /`([^`\n]+)`/g;

/** Package-manager commands that are not scripts: `pnpm install` names no script. */
const PACKAGE_MANAGER_BUILTINS = new Set(
  'add audit bin cache ci config create dedupe dlx exec help import info init install i link list ls login logout outdated pack patch prune publish rebuild remove rm root run search setup store test un uninstall unlink up update upgrade version why workspace workspaces'.split(
    ' ',
  ),
);

const NAME = '[A-Za-z_][\\w:.-]*';
const COMMANDS: Array<{ kind: CitationKind; pattern: RegExp }> = [
  { kind: 'script', pattern: new RegExp(`^(?:npm|yarn|pnpm|bun)\\s+run(?:-script)?\\s+(${NAME})`) },
  { kind: 'script', pattern: new RegExp(`^(?:yarn|pnpm)\\s+(${NAME})`) },
  { kind: 'make', pattern: /^make\s+(?:-\S+\s+)*([A-Za-z_][\w.-]*)(?=\s|$)/ },
  { kind: 'just', pattern: /^just\s+(?:-\S+\s+)*([A-Za-z_][\w-]*)(?=\s|$)/ },
  { kind: 'file', pattern: /^(?:\.\/)?((?:scripts?|bin|tools)\/[\w./-]*[\w-])(?=\s|$)/ },
];

/** An identifier (dotted: the last part is asked about), optionally called: `parseConfig()`, `api.fetchUser(id)`. */
const SYMBOL = /^(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)(\([^()]*\))?$/;
const FLAG = /^--([a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z][a-z0-9]{3,})(?:=\S*)?$/;

/** Looks like code rather than a word: called, camelCase, PascalCase of two parts or more, or with an underscore. */
function looksLikeCode(name: string, called: boolean): boolean {
  if (name.length < 4) return false;
  return called || /[a-z][A-Z]/.test(name) || /^[A-Z][a-z0-9]+[A-Z]/.test(name) || (/_/.test(name) && /[A-Za-z]{2}/.test(name));
}

function spanCitation(span: string): Citation | undefined {
  const text = span.trim();
  for (const { kind, pattern } of COMMANDS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const name = match[1]!;
    if (kind === 'script' && !/\srun/.test(text) && PACKAGE_MANAGER_BUILTINS.has(name)) return undefined;
    return { kind, text, name };
  }
  const flag = FLAG.exec(text);
  if (flag) return { kind: 'flag', text, name: flag[1]! };
  const symbol = SYMBOL.exec(text);
  if (symbol && looksLikeCode(symbol[1]!, symbol[2] !== undefined)) return { kind: 'symbol', text, name: symbol[1]! };
  return undefined;
}

/** Everything a line cites, paths first. */
export function citations(line: string): Citation[] {
  const found: Citation[] = [...line.matchAll(CITED_PATH)].map((m) => ({ kind: 'file' as const, text: m[1]!, name: m[1]!.replace(/^\.\//, '') }));
  for (const match of line.matchAll(CODE_SPAN)) {
    const cited = spanCitation(match[1]!);
    if (cited && !found.some((c) => c.kind === cited.kind && c.name === cited.name)) found.push(cited);
  }
  return found;
}

/** The spellings of a flag code may define it by: `dry-run`, `dryRun`, `dry_run`. */
export function flagSpellings(name: string): string[] {
  return [...new Set([name, name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()), name.replace(/-/g, '_')])];
}

export const citationKey = (citation: Pick<Citation, 'kind' | 'name'>) => `${citation.kind}\u0000${citation.name}`;
