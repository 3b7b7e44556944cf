/** Entry of `dist/fast/extract.cjs`: the Stop hook's fast path (see bin/memdir.cjs). */
export { tryFastPath } from '../extract/hook.js';
