/** Entry of `dist/extract-hook.cjs`: the Stop hook's fast path, loaded by bin/memdir.cjs before the CLI. */
export { tryExtractHook } from './extract/hook.js';
