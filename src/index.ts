/** Library API: the commands as functions, with their options and results. Internals are not exported. */
export { resolveMemoryDir, type Resolution, type ResolveOptions } from './store/resolve.js';
export { sessionContext, type SessionContext } from './store/context.js';
export { saveMemory, forgetMemory, applyMemoryEdits, type SaveInput, type SaveResult, type ForgetResult, type MemoryEdit, type EditResult } from './store/memory-store.js';
export { listMemories, type ListedMemory } from './memories/list.js';
export { showMemory, type ShownMemory } from './memories/show.js';
export { lint, validateConfig, type LintOptions } from './lint/api.js';
export type { LintResult } from './lint/run.js';
export type { Finding, Rule, Severity } from './lint/types.js';
export { RULES } from './lint/rules/index.js';
export { runRefactor as refactor, type RefactorOptions, type RefactorResult } from './refactor/run.js';
export { dream, type DreamOptions, type DreamResult } from './dream/run.js';
export type { AgentView, FileChangeSummary, LoadedSize, LostRule } from './core/agent-view.js';
export { recall, type RecallOptions, type RecallResult } from './recall/recall.js';
export { type CandidateDecision, type ConsideredStatement, type EngineFallback, extract, type ExtractOptions, type ExtractResult } from './extract/extract.js';
export { DEFAULT_CONFIG, type LintConfig, type MemdirConfig } from './config/validate.js';
export { MEMORY_TYPES, type MemoryType } from './core/taxonomy.js';
export { MemdirError, InputError, UsageError, ConfigError, IoError, RefusedError, ExitCode } from './core/errors.js';
