/**
 * What memdir's own scripts and benchmarks need beyond the public API. Built
 * to dist/internal.js, which package.json "exports" does not expose.
 */
export { scanMemories } from './store/scan.js';
export { loadCorpus, loadDocs } from './recall/load.js';
export { recallIndexPath } from './recall/index-file.js';
export { DEFAULT_TUNING, RecallIndex } from './recall/rank.js';
export { fuseRankings, isMostlyLatin } from './recall/dense.js';
export { semanticScorer } from './recall/semantic.js';
export { documentFor, memoryParts, searchTerms } from './recall/document.js';
export { RULES } from './lint/rules/index.js';
export { ruleDoc } from './lint/docs.js';
export { configSchema } from './config/schema.js';
export { readTranscript } from './claude-code/read-transcript.js';
export { withDirLock } from './store/lock.js';
export { findDurableStatement } from './extract/local.js';
export { redactSecrets } from './core/secrets.js';
