/** Entry of `dist/fast/where.cjs`: `memdir where` without yargs (see bin/memdir.cjs). */
export { tryFastPath } from '../memories/where.js';
