/** Entry of `dist/fast/recall.cjs`: the UserPromptSubmit hook's fast path (see bin/memdir.cjs). */
import { recall } from '../cmd/table/recall.js';
import { fastPath } from '../shell/hook-args.js';
import { takeFastPath } from '../recall/hook.js';

export const tryFastPath = fastPath(recall, takeFastPath);
