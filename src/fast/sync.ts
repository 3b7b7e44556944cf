/** Entry of `dist/fast/sync.cjs`: a plain `memdir sync` that finds nothing changed (see bin/memdir.cjs). */
import { sync } from '../cmd/table/sync.js';
import { fastPath } from '../shell/hook-args.js';
import { takeFastPath } from '../sync/fast.js';

export const tryFastPath = fastPath(sync, takeFastPath);
