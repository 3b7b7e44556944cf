/**
 * memdir.config.json, one section per feature. Lint's keys sit at the top
 * level (`rules`, `ignore`, `skipIndex`, as they always have); every other
 * feature owns an object of its own. The field specs below drive both the
 * validation and the shipped JSON schema, so the two cannot disagree.
 */

export type FieldSpec =
  | { type: 'boolean'; description: string }
  | { type: 'integer' | 'number'; minimum?: number; maximum?: number; description: string }
  | { type: 'string'; enum?: readonly string[]; description: string };

export type SectionSpec = Record<string, FieldSpec>;

const ENGINES = ['auto', 'local', 'claude'] as const;
const engine = (what: string) => ({ type: 'string', enum: ENGINES, description: `engine for ${what} (auto: claude when ANTHROPIC_API_KEY is set)` }) as const;
const model = (what: string) => ({ type: 'string', description: `model for ${what} with the claude engine` }) as const;

/** The feature sections and their keys. A key not listed here is a configuration error. */
export const SECTIONS = {
  recall: {
    limit: { type: 'integer', minimum: 1, description: 'at most this many memories per query (default 5)' },
    engine: engine('recall'),
    model: model('recall'),
    semantic: {
      type: 'boolean',
      description: 'local engine, outside the prompt hook: add the sentence model to the word ranking when its optional packages are installed (default true)',
    },
  },
  extract: {
    engine: engine('extract'),
    model: model('extract'),
    every: { type: 'integer', minimum: 1, description: 'with --hook, extract every N user turns (default 1)' },
    explicitOnly: {
      type: 'boolean',
      description: 'local engine: keep only explicit requests to remember ("remember…", "note for the future…"), nothing inferred (default: true in the runs the Stop hook starts, false by hand)',
    },
  },
  dream: {
    engine: engine('dream'),
    model: model('dream'),
    minHours: { type: 'number', minimum: 0, description: 'hours since the last consolidation before dream is due (default 24)' },
    minSessions: { type: 'integer', minimum: 0, description: 'sessions since the last consolidation before dream is due (default 5)' },
    maxDelete: { type: 'integer', minimum: 0, maximum: 100, description: 'most memories one run may delete, in percent (default 25)' },
    restructure: {
      type: 'boolean',
      description:
        'run the full two-layer restructure (content moved into topic files, the index re-rendered, near-duplicates merged, contradictions applied) instead of changing only what a named problem requires (default false)',
    },
  },
  sync: {
    backend: { type: 'string', enum: ['git', 'http'], description: 'where team memory lives (default git)' },
    remote: { type: 'string', description: 'git remote holding team memory (default origin)' },
    branch: { type: 'string', description: 'branch of the remote that holds team memory' },
    redact: { type: 'boolean', description: 'replace secrets with [REDACTED] instead of refusing the file' },
    url: { type: 'string', description: 'server of the HTTP backend (speaks GET/PUT /api/claude_code/team_memory)' },
    repo: { type: 'string', description: 'owner/repo the HTTP backend files team memory under (default: from the origin remote)' },
  },
  hooks: {
    command: { type: 'string', description: 'how installed hooks invoke memdir (e.g. "npx memdir" or an absolute path)' },
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
