/** The sizes memdir holds memory to, in one place (lint rules, truncation, refactor and save share them). */

/** Claude Code loads MEMORY.md up to 200 lines… */
export const INDEX_MAX_LINES = 200;
/** …then cuts it at the last newline before 25,000 characters (UTF-16 units). */
export const INDEX_MAX_BYTES = 25_000;
/** An index line is a pointer, not the memory: about 150 characters at most. */
export const INDEX_LINE_MAX = 150;
/** Claude Code's own warning asks for index lines "under ~200 characters": refactor shortens a hook only past it (or when the index does not fit). */
export const INDEX_LINE_WARN = 200;
/**
 * Lint warns past this: halfway between the 150 memdir writes to and the "under ~200 characters"
 * Claude Code's truncation notice asks for, so a line a few characters over 150 is not noise.
 */
export const INDEX_LINE_REPORT = 175;
/** A topic file over 200 lines is several memories. */
export const TOPIC_MAX_LINES = 200;

/**
 * The largest topic file memdir reads as a memory (1 MB). A bigger file is
 * a pasted log or a dump, not a memory: lint reports it, refactor leaves it
 * alone instead of splitting it into thousands of parts, and recall indexes
 * only its first megabyte. Reading stops at this size, so no command holds
 * a 50 MB topic file in memory.
 */
export const MAX_TOPIC_FILE_BYTES = 1024 * 1024;
