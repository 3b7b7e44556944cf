export { type LoadedIndex as TruncatedIndex, loadIndex as truncateIndex } from './load-model.js';
