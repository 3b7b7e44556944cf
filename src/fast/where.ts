/** Entry of `dist/fast/where.cjs`: `memdir where` without yargs (see bin/memdir.cjs). */
import { where } from '../cmd/table/where.js';
import { fastPath } from '../shell/hook-args.js';
import { takeFastPath } from '../memories/where.js';

export const tryFastPath = fastPath(where, takeFastPath);
