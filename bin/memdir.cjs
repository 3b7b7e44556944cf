#!/usr/bin/env node
'use strict';
// Node >= 22.1 caches compiled code between runs; hooks start faster with it.
require('node:module').enableCompileCache?.();
// The Stop hook runs after every turn: its plain form starts without yargs and the rest of the CLI.
const args = process.argv.slice(2);
if (!(args[0] === 'extract' && require('../dist/extract-hook.cjs').tryExtractHook(args))) require('../dist/cli.cjs');
