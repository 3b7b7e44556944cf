/** Generated bloated memory indexes (shared with the benchmarks). */
export { bloatedIndex, deadPointerIndex, mixedIndex, pointerIndex } from '../../bench/generators.js';
