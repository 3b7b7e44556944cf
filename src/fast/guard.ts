/** Entry of `dist/fast/guard.cjs`: the PreToolUse hook's fast path (see bin/memdir.cjs). */
import { guard } from '../cmd/table/guard.js';
import { fastPath } from '../shell/hook-args.js';
import { takeFastPath } from '../guard/hook.js';

export const tryFastPath = fastPath(guard, takeFastPath);
