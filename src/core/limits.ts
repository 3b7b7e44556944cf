/**
 * The largest topic file memdir reads as a memory (1 MB). A bigger file is
 * a pasted log or a dump, not a memory: lint reports it, refactor leaves it
 * alone instead of splitting it into thousands of parts, and recall indexes
 * only its first megabyte. Reading stops at this size, so no command holds
 * a 50 MB topic file in memory.
 */
export const MAX_TOPIC_FILE_BYTES = 1024 * 1024;
