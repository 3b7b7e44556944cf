/**
 * memdir.config.json, one section per feature. Lint's keys sit at the top
 * level (`rules`, `ignore`, `skipIndex`, as they always have); every other
 * feature owns an object of its own. The field specs below drive both the
 * validation and the shipped JSON schema, so the two cannot disagree.
 */

import { ENGINES } from '../llm/model.js';

/**
 * `default` is the value a command uses when neither a flag nor a file sets the key (the runners
 * read it from here; a key without one has none, or one the description explains).
 * `trust: 'user'` marks a key that chooses what runs or where data goes (a command, a URL, a
 * remote, a backend, a model API): only the user's own config sets it, and in a file that came
 * with a project it is ignored. Unmarked keys (rules, thresholds, limits) a project may set.
 */
export type FieldSpec = (
  | { type: 'boolean'; default?: boolean; description: string }
  | { type: 'integer' | 'number'; minimum?: number; maximum?: number; default?: number; description: string }
  | { type: 'string'; enum?: readonly string[]; default?: string; description: string }
) & { trust?: 'user' };

export type SectionSpec = Record<string, FieldSpec>;

// The claude engine sends memory to a model API with the user's key: the user's choice alone.
const engine = <D extends (typeof ENGINES)[number]>(what: string, fallback: D) =>
  ({ type: 'string', enum: ENGINES, default: fallback, trust: 'user', description: `engine for ${what} (auto: claude when ANTHROPIC_API_KEY is set)` }) as const;
const model = (what: string) => ({ type: 'string', trust: 'user', description: `model for ${what} with the claude engine` }) as const;

const GUARD_ACTIONS = ['block', 'warn', 'off'] as const;
// What the PreToolUse guard does about one kind of problem: refuse the write, let it through with a note to the user, or nothing.
const guardAction = <D extends (typeof GUARD_ACTIONS)[number] = 'block'>(what: string, fallback?: D) =>
  ({ type: 'string', enum: GUARD_ACTIONS, default: (fallback ?? 'block') as D, description: `guard --hook: ${what}; block refuses it, warn lets it through with a note, off ignores it` }) as const;

/** The feature sections and their keys. A key not listed here is a configuration error. */
export const SECTIONS = {
  recall: {
    limit: { type: 'integer', minimum: 1, default: 5, description: 'at most this many memories per query' },
    engine: engine('recall', 'auto'),
    model: model('recall'),
    semantic: {
      type: 'boolean',
      default: true,
      description: 'local engine, outside the prompt hook: add the sentence model to the word ranking when its optional packages are installed',
    },
  },
  extract: {
    engine: engine('extract', 'auto'),
    model: model('extract'),
    every: { type: 'integer', minimum: 1, default: 1, description: 'with --hook, extract every N user turns' },
    explicitOnly: {
      type: 'boolean',
      description:
        'local engine: keep only what the user asked for, explicit requests ("remember…", "note for the future…") and standing instructions to the agent ("from now on…", "always/never…"); the inferred rest waits for extract --review (default: true in the runs the Stop hook starts, false by hand)',
    },
  },
  session: {
    // Local by default: the notes are rewritten every few thousand tokens, a model call each time.
    engine: engine('session notes', 'local'),
    model: model('session notes'),
    initTokens: { type: 'integer', minimum: 0, default: 10_000, description: 'session --hook: conversation tokens (characters / 4) before the notes are first written' },
    updateTokens: { type: 'integer', minimum: 0, default: 5_000, description: 'session --hook: more conversation tokens before the notes are written again' },
    toolCalls: {
      type: 'integer',
      minimum: 0,
      default: 3,
      description: 'session --hook: tool calls since the last update needed for another (or a last turn without tool calls)',
    },
    maxTokens: { type: 'integer', minimum: 500, default: 6_000, description: 'most tokens (characters / 4) the notes may take; the oldest worklog lines fold first' },
  },
  docs: {
    engine: engine('docs (local lists the Magic Docs and writes nothing)', 'auto'),
    model: model('docs'),
  },
  dream: {
    engine: engine('dream', 'local'),
    model: model('dream'),
    minHours: { type: 'number', minimum: 0, default: 24, description: 'hours since the last consolidation before dream is due' },
    minSessions: { type: 'integer', minimum: 0, default: 5, description: 'sessions since the last consolidation before dream is due' },
    maxDelete: { type: 'integer', minimum: 0, maximum: 100, default: 25, description: 'most memories one run may delete, in percent' },
    restructure: {
      type: 'boolean',
      default: false,
      description:
        'run the full two-layer restructure (content moved into topic files, the index re-rendered, near-duplicates merged, contradictions applied) instead of changing only what a named problem requires',
    },
  },
  sync: {
    backend: { type: 'string', enum: ['git', 'http'], default: 'git', trust: 'user', description: 'where team memory lives' },
    remote: { type: 'string', default: 'origin', trust: 'user', description: 'git remote holding team memory' },
    branch: { type: 'string', trust: 'user', description: 'branch of the remote that holds team memory' },
    redact: { type: 'boolean', default: false, description: 'replace secrets with [REDACTED] instead of refusing the file' },
    url: { type: 'string', trust: 'user', description: 'server of the HTTP backend (speaks GET/PUT /api/claude_code/team_memory)' },
    repo: { type: 'string', trust: 'user', description: 'owner/repo the HTTP backend files team memory under (default: from the origin remote)' },
    personalRemote: { type: 'string', trust: 'user', description: 'git remote (URL or path) that `sync --scope personal` syncs your private memory with' },
    personalPrivate: {
      type: 'boolean',
      trust: 'user',
      description: 'the personal remote is readable by you alone: `sync --scope personal --allow-secret` may upload files that hold a secret',
    },
  },
  guard: {
    indexLimit: guardAction('a write that makes MEMORY.md longer than what Claude Code loads (200 lines, 25,000 characters) when it grew (MEM002, MEM003)'),
    inlineContent: guardAction('a write that adds inline content (paragraphs, tables, details) to MEMORY.md (MEM005)'),
    secret: guardAction('a write that adds a secret (MEM020)'),
    poisoning: guardAction('a write that adds text addressed to the agent that reads memory: hidden instructions, exfiltration (MEM026)'),
    frontmatter: guardAction('a write that leaves a topic file with missing or invalid frontmatter (MEM010, MEM012, MEM013)'),
    escape: guardAction('a write through a symlink in the memory directory to a file outside it'),
    unindexedTopic: guardAction('a write that creates a topic file no pointer in MEMORY.md reaches yet (MEM008; Claude Code writes the file first, then the pointer)', 'off'),
  },
  hooks: {
    command: { type: 'string', trust: 'user', description: "how installed hooks invoke memdir (default: the project's node_modules/.bin/memdir, else memdir on PATH, else node and the bin)" },
  },
} as const satisfies Record<string, SectionSpec>;

export type SectionName = keyof typeof SECTIONS;

type FieldValue<F> = F extends { type: 'boolean' }
  ? boolean
  : F extends { type: 'integer' | 'number' }
    ? number
    : F extends { enum: readonly (infer E)[] }
      ? E
      : F extends { type: 'string' }
        ? string
        : never;

/** The validated values of one section: only the keys the file set. */
export type SectionValues<S extends SectionName> = { -readonly [K in keyof (typeof SECTIONS)[S]]?: FieldValue<(typeof SECTIONS)[S][K]> };

type Defaulted<S extends SectionName> = { [K in keyof (typeof SECTIONS)[S]]: (typeof SECTIONS)[S][K] extends { default: unknown } ? K : never }[keyof (typeof SECTIONS)[S]];

/** One section as a command uses it: what the files set, else each field's default. */
export type SectionSettings<S extends SectionName> = SectionValues<S> & { -readonly [K in Defaulted<S>]-?: FieldValue<(typeof SECTIONS)[S][K]> };

/** One section's values as a command uses them: each field the files left unset takes its default. Pure. */
export function sectionSettings<S extends SectionName>(section: S, values: SectionValues<S>): SectionSettings<S> {
  const fields: SectionSpec = SECTIONS[section];
  const defaults = Object.fromEntries(Object.entries(fields).flatMap(([key, spec]) => (spec.default === undefined ? [] : [[key, spec.default]])));
  return { ...defaults, ...values } as SectionSettings<S>;
}

/** The default of one field, for callers that take the value without a config (the library API). */
export function fieldDefault<S extends SectionName, K extends Defaulted<S>>(section: S, key: K): FieldValue<(typeof SECTIONS)[S][K]> {
  return (SECTIONS[section][key] as { default: FieldValue<(typeof SECTIONS)[S][K]> }).default;
}

/** One field's value checked against its spec: the problem in words, or undefined when it is fine. */
export function fieldProblem(spec: FieldSpec, value: unknown): string | undefined {
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'integer':
    case 'number': {
      const kind = spec.type === 'integer' ? 'an integer' : 'a number';
      if (typeof value !== 'number' || !Number.isFinite(value) || (spec.type === 'integer' && !Number.isInteger(value))) return `must be ${kind}`;
      if (spec.minimum !== undefined && value < spec.minimum) return `must be ${kind} ≥ ${spec.minimum}`;
      if (spec.maximum !== undefined && value > spec.maximum) return `must be ${kind} ≤ ${spec.maximum}`;
      return undefined;
    }
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      return spec.enum && !spec.enum.includes(value) ? `must be one of ${spec.enum.join(', ')}` : undefined;
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A parsed config without the keys only the user may set, and those keys (`sync.url`). Pure. */
export function withoutUserKeys(value: Record<string, unknown>): { value: Record<string, unknown>; dropped: string[] } {
  const dropped: string[] = [];
  const kept: Record<string, unknown> = { ...value };
  for (const [section, fields] of Object.entries(SECTIONS) as [string, SectionSpec][]) {
    const entry = value[section];
    if (!isObject(entry)) continue;
    const userKeys = Object.keys(entry).filter((key) => fields[key]?.trust === 'user');
    if (userKeys.length === 0) continue;
    dropped.push(...userKeys.map((key) => `${section}.${key}`));
    kept[section] = Object.fromEntries(Object.entries(entry).filter(([key]) => !userKeys.includes(key)));
  }
  return { value: kept, dropped };
}

/** Two parsed configs as one: a key `upper` sets wins, rule by rule and section key by section key. Pure. */
export function mergeConfigValues(lower: Record<string, unknown>, upper: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...lower, ...upper };
  for (const key of ['rules', ...Object.keys(SECTIONS)]) {
    if (isObject(lower[key]) && isObject(upper[key])) merged[key] = { ...lower[key], ...upper[key] };
  }
  return merged;
}
