/** Entry of `dist/fast/recall.cjs`: the UserPromptSubmit hook's fast path (see bin/memdir.cjs). */
export { tryFastPath } from '../recall/hook.js';
