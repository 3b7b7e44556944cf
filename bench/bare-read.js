// The peer for whole-command benchmarks: a Node process that lists a directory and reads every .md file.
import { bareReadLoop } from './lib.js';

bareReadLoop(process.argv[2]);
