/** Entry of `dist/fast/dream.cjs`: the SessionEnd hook's fast path (see bin/memdir.cjs). */
import { dream } from '../cmd/table/dream.js';
import { fastPath } from '../shell/hook-args.js';
import { takeFastPath } from '../dream/hook.js';

export const tryFastPath = fastPath(dream, takeFastPath);
