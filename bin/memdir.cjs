#!/usr/bin/env node
'use strict';
// Node >= 22.1 caches compiled code between runs; hooks start faster with it.
require('node:module').enableCompileCache?.();
// Hooks run on every prompt, turn and commit: their plain forms start without yargs and the rest
// of the CLI. A fast path returns false for any command line it does not fully understand; one
// that took the command may still hand it over to the full CLI (`fullCli`) once it has looked.
const FAST_PATHS = new Set(['extract', 'recall', 'dream', 'sync']);
const args = process.argv.slice(2);
const fullCli = () => require('../dist/cli.cjs');
if (!(FAST_PATHS.has(args[0]) && require(`../dist/fast/${args[0]}.cjs`).tryFastPath(args, fullCli))) fullCli();
