/** Entry of `dist/fast/context.cjs`: the SessionStart hook's fast path (see bin/memdir.cjs). */
import { context } from '../cmd/table/context.js';
import { fastPath } from '../shell/hook-args.js';
import { takeFastPath } from '../memories/context-hook.js';

export const tryFastPath = fastPath(context, takeFastPath);
