#!/usr/bin/env node
'use strict';
// Node >= 22.1 caches compiled code between runs; hooks start faster with it.
require('node:module').enableCompileCache?.();
require('../dist/cli.cjs');
