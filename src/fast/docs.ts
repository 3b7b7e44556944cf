/** Entry of `dist/fast/docs.cjs`: the fast path of the Stop hook of `memdir docs` (see bin/memdir.cjs). */
import { docs } from '../cmd/table/docs.js';
import { takeFastPath } from '../docs/hook.js';
import { fastPath } from '../shell/hook-args.js';

export const tryFastPath = fastPath(docs, takeFastPath);
