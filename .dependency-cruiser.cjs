// The layers (README "Design"): cmd → features → store/config/llm → core. `npm test` runs this check.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      comment: 'src/core/ is parsing, rendering, dates and ranking: no I/O, and nothing of ours outside core',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'core-has-no-io',
      comment: 'the pure core never touches the file system, processes or the network',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(fs|fs/promises|child_process|net|http|https|worker_threads|os|process)$' },
    },
    {
      name: 'features-do-not-import-cmd',
      comment: 'src/cmd/ maps arguments to options; features must not depend on it',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cmd/', '^src/cli\\.ts$', '^src/fast/'] },
      to: { path: '^src/cmd/' },
    },
    {
      name: 'shared-layers-do-not-import-features',
      comment: 'store, config, llm and shell serve every feature; they must not depend on one',
      severity: 'error',
      from: { path: '^src/(store|config|llm|shell)/' },
      to: { path: '^src/(lint|refactor|recall|extract|dream|sync|hooks)/' },
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
