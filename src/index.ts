/** Library API: the commands as functions. */
export { resolveMemoryDir, type Resolution, type ResolveOptions } from './store/resolve.js';
export { saveMemory, forgetMemory, readIndexText, type SaveInput, type SaveResult, type ForgetResult } from './store/memory-store.js';
export { sessionContext, type SessionContext } from './store/context.js';
export { scanMemories, type ScannedMemory } from './store/scan.js';
export { withDirLock } from './store/lock.js';
export { parseTopicFile, serializeTopicFile, memoryFields, type TopicFile } from './core/topic-file.js';
export { parseMemoryIndex, renderMemoryIndex, type MemoryIndex, type IndexLine } from './core/memory-index.js';
export { truncateIndex, INDEX_MAX_BYTES, INDEX_MAX_LINES } from './core/truncate.js';
export { freshnessHeader, ageInDays } from './core/freshness.js';
export { sanitizeProjectPath } from './core/paths.js';
export { MEMORY_TYPES, type MemoryType } from './core/taxonomy.js';
export { MemdirError, InputError, UsageError, ConfigError, IoError, RefusedError, ExitCode } from './core/errors.js';
