import fs from 'node:fs';
import path from 'node:path';
import { runProcess, type CliResult } from './run-cli.js';

// Loaded with -r into a memdir process: records every module it loaded and every file it read, at exit.
const RECORDER = `
const fs = require('node:fs');
const read = [];
for (const name of ['readFileSync', 'openSync']) {
  const original = fs[name];
  fs[name] = function (file, ...rest) { if (typeof file === 'string') read.push(file); return original.call(this, file, ...rest); };
}
process.on('exit', () => fs.writeFileSync(process.env.RECORD_TO, JSON.stringify({ modules: Object.keys(require.cache), read })));
`;

export interface RecordedRun extends CliResult {
  /** The modules the process loaded (Node's module cache at exit). */
  modules: string[];
  /** The files it read by path. */
  read: string[];
}

/** Run `args` under Node with the recorder, in `folder` (which takes the recorder and its record). */
export async function runRecorded(folder: string, args: string[], options: { env: NodeJS.ProcessEnv; input?: string; cwd?: string }): Promise<RecordedRun> {
  const recorder = path.join(folder, 'recorder.cjs');
  if (!fs.existsSync(recorder)) fs.writeFileSync(recorder, RECORDER);
  const record = path.join(folder, `record-${process.hrtime.bigint()}.json`);
  const result = await runProcess(process.execPath, ['-r', recorder, ...args], { cwd: options.cwd ?? folder, env: { ...options.env, RECORD_TO: record }, input: options.input });
  return { ...result, ...(JSON.parse(fs.readFileSync(record, 'utf8')) as { modules: string[]; read: string[] }) };
}
