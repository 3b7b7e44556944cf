#!/usr/bin/env node
'use strict';
// The bundles load with a V8 code cache (Node's own compile cache on Node >= 22.1): hooks start faster
// (bench `startup-tricks`; docs/architecture.md#start-up).
const { requireBundle } = require('../dist/code-cache.cjs');
// Hooks run on every prompt, turn and commit: their plain forms start without yargs and the rest
// of the CLI. A fast path returns false for any command line it does not fully understand; one
// that took the command may still hand it over to the full CLI (`fullCli`) once it has looked.
// It is loaded only for the forms it may take (the flag its command's table names, `--hook`, or any
// form: '' in the list the build writes from the tables): a bundle's code cache holds what its first
// process ran, and a command line it declines would leave a cache of little.
const FAST_PATHS = require('../dist/fast-paths.json');
const args = process.argv.slice(2);
const bundle = (name) => requireBundle(require('node:path').join(__dirname, '..', 'dist', `${name}.cjs`));
const fullCli = () => bundle('cli');
const fast = Object.hasOwn(FAST_PATHS, args[0]) && (FAST_PATHS[args[0]] === '' || args.includes(FAST_PATHS[args[0]]));
if (!(fast && bundle(`fast/${args[0]}`).tryFastPath(args, fullCli))) fullCli();
