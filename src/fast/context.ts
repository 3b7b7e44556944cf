/** Entry of `dist/fast/context.cjs`: the SessionStart hook's fast path (see bin/memdir.cjs). */
export { tryFastPath } from '../memories/context-hook.js';
