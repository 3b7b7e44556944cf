#!/usr/bin/env node
import module from 'node:module';

// Node >= 22.1 caches compiled code between runs; hooks start faster with it.
module.enableCompileCache?.();
await import('../dist/cli.js');
