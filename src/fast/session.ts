/** Entry of `dist/fast/session.cjs`: the Stop hook's fast path of session notes (see bin/memdir.cjs). */
import { session } from '../cmd/table/session.js';
import { fastPath } from '../shell/hook-args.js';
import { takeFastPath } from '../session/hook.js';

export const tryFastPath = fastPath(session, takeFastPath);
