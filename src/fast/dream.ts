/** Entry of `dist/fast/dream.cjs`: the SessionEnd hook's fast path (see bin/memdir.cjs). */
export { tryFastPath } from '../dream/hook.js';
