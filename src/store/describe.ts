import fs from 'node:fs';
import type { Resolution } from './resolve.js';

/** A resolution as a user reads it: the rule that won, in words, plus the facts. */
export function describeResolution(resolution: Resolution) {
  const how = {
    flag: 'from --dir',
    env: 'from the environment variable CLAUDE_COWORK_MEMORY_PATH_OVERRIDE',
    setting: `from autoMemoryDirectory in ${resolution.file} (${resolution.source} settings)`,
    default: `default location for the project at ${resolution.projectRoot}`,
  }[resolution.rule];
  return {
    dir: resolution.dir,
    rule: resolution.rule,
    source: resolution.source ?? null,
    file: resolution.file ?? null,
    projectRoot: resolution.projectRoot ?? null,
    exists: fs.existsSync(resolution.dir),
    how,
    warnings: resolution.warnings,
  };
}
