/** Generated bloated memory indexes (shared with the benchmarks). */
export { bloatedIndex, deadPointerIndex, liveTopics, mixedIndex, pointerIndex } from '../../bench/generators.js';
