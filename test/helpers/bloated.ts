/** Generated bloated memory indexes (shared with the benchmarks). */
export { bloatedIndex, mixedIndex, pointerIndex } from '../../bench/generators.js';
