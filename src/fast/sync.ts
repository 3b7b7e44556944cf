/** Entry of `dist/fast/sync.cjs`: a plain `memdir sync` that finds nothing changed (see bin/memdir.cjs). */
export { tryFastPath } from '../sync/fast.js';
