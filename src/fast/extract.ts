/** Entry of `dist/fast/extract.cjs`: the Stop hook's fast path (see bin/memdir.cjs). */
import { extract } from '../cmd/table/extract.js';
import { fastPath } from '../shell/hook-args.js';
import { takeFastPath } from '../extract/hook.js';

export const tryFastPath = fastPath(extract, takeFastPath);
