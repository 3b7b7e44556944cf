// The peer for `memdir lint --fix` as a whole process: read MEMORY.md, drop dead pointers, write it back safely.
import { bareFixIndex } from './lib.js';

bareFixIndex(process.argv[2]);
