// The layers (docs/architecture.md#layers): entry → features → shared → core. `npm test` runs this check.
// Each layer imports only the layers below it; a feature never imports another feature.

/** The CLI, the library's exports and the hook fast paths: they wire features together. */
const ENTRY = ['^src/(cli|index|internal)\\.ts$', '^src/(cmd|fast)/'];
/** One folder per command family; each imports shared layers and core only. */
const FEATURES = ['lint', 'refactor', 'recall', 'extract', 'session', 'dream', 'sync', 'hooks', 'memories', 'doctor', 'guard', 'docs'];
/** Engines and I/O more than one feature uses: the plan engine, Claude Code's formats, the store, config, the model, the shell. */
const SHARED = ['restructure', 'claude-code', 'store', 'config', 'llm', 'shell'];
const CORE = '^src/core/';

const folders = (names) => `^src/(${names.join('|')})/`;
const FEATURE = folders(FEATURES);
const LAYERED = [...ENTRY, FEATURE, folders(SHARED), CORE];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      comment: 'src/core/ is parsing, rendering, dates and ranking: no I/O, and nothing of ours outside core',
      severity: 'error',
      from: { path: CORE },
      to: { path: '^src/', pathNot: CORE },
    },
    {
      name: 'core-has-no-io',
      comment: 'the pure core never touches the file system, processes or the network',
      severity: 'error',
      from: { path: CORE },
      to: { dependencyTypes: ['core'], path: '^(node:)?(fs|fs/promises|child_process|net|http|https|worker_threads|os|process)$' },
    },
    {
      name: 'feature-imports-no-feature',
      comment: 'a feature imports shared layers and core only; an engine two features need belongs in a shared folder (docs/architecture.md#layers)',
      severity: 'error',
      from: { path: FEATURE, pathNot: ['^src/refactor/run\\.ts$', '^src/guard/check\\.ts$'] },
      to: { path: FEATURE, pathNot: '^src/$1/' },
    },
    {
      name: 'refactor-audit-uses-lint-only',
      comment:
        "the one named exception: refactor's audit counts what it repairs with lint's own rules (lintModel + RULES), so the numbers are the ones `memdir lint` reports; it imports no other feature",
      severity: 'error',
      from: { path: '^src/refactor/run\\.ts$' },
      to: { path: FEATURE, pathNot: ['^src/refactor/', '^src/lint/(engine|rules/index)\\.ts$'] },
    },
    {
      name: 'guard-judges-with-lint-only',
      comment:
        "the second named exception: the PreToolUse guard judges a write with lint's own rules (lintDirectory + RULES), so it refuses exactly what `memdir lint` reports; it imports no other feature",
      severity: 'error',
      from: { path: '^src/guard/check\\.ts$' },
      to: { path: FEATURE, pathNot: ['^src/guard/', '^src/lint/(engine|rules/index|types)\\.ts$'] },
    },
    {
      name: 'shared-imports-no-feature',
      comment: `${SHARED.join(', ')} serve every feature; they never import a feature or the entry layer`,
      severity: 'error',
      from: { path: folders(SHARED) },
      to: { path: [FEATURE, ...ENTRY] },
    },
    {
      name: 'only-entry-imports-entry',
      comment: 'src/cmd/, src/fast/, cli.ts, index.ts and internal.ts sit on top: features, shared layers and core never import them',
      severity: 'error',
      from: { path: '^src/', pathNot: ENTRY },
      to: { path: ENTRY },
    },
    {
      name: 'only-cli-imports-cmd',
      comment: 'src/cmd/ maps arguments to options; src/cli.ts wires the commands, and each fast path (src/fast/) reads its command table; nothing else imports them',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cmd/', '^src/cli\\.ts$', '^src/fast/'] },
      to: { path: '^src/cmd/' },
    },
    {
      name: 'every-folder-has-a-layer',
      comment: 'a module outside the folders this file names: add its folder to ENTRY, FEATURES, SHARED or core',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERED },
      to: {},
    },
    {
      name: 'every-imported-folder-has-a-layer',
      comment: 'a module outside the folders this file names: add its folder to ENTRY, FEATURES, SHARED or core',
      severity: 'error',
      from: {},
      to: { path: '^src/', pathNot: LAYERED },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
