import { fieldDefault } from '../../config/sections.js';
import { ENGINES } from '../../llm/model.js';
import type { CommandTable } from '../../shell/command-table.js';

export const dream = {
  name: 'dream',
  command: 'dream',
  describe: 'Consolidate memory when due, changing only what a named problem requires: dead pointers, true duplicates, relative dates, drift; contradictions reported',
  flags: {
    force: { type: 'boolean', default: false, describe: 'run even when not due' },
    'if-due': { type: 'boolean', fast: true, describe: 'exit 0 quietly when not due (default with --hook)' },
    hook: { type: 'boolean', default: false, fast: true, describe: 'answer a Claude Code SessionEnd hook (gated; never fails the agent)' },
    status: { type: 'boolean', default: false, describe: 'print the gate: last run, sessions since, due or not and why' },
    'dry-run': { type: 'boolean', default: false, describe: 'print the summary, what the agent would see and one line per file with its reasons; change nothing' },
    diff: { type: 'boolean', default: false, describe: 'also print the full unified diff of every file' },
    undo: { type: 'boolean', default: false, describe: 'restore the files of the last run exactly' },
    commit: { type: 'boolean', default: false, describe: 'commit the change in the git work tree holding the directory (the report as message)' },
    restructure: {
      type: 'boolean',
      describe: 'also restructure: move content into topic files, re-render the index, merge near-duplicates, apply contradictions (default: config, else off)',
    },
    'prune-drift': { type: 'boolean', default: false, describe: 'delete lines citing code the repository no longer has, instead of marking them **Stale?**' },
    'min-hours': { type: 'number', fast: true, describe: `hours since the last consolidation before it is due (default ${fieldDefault('dream', 'minHours')})` },
    'min-sessions': { type: 'number', min: 0, fast: true, describe: `sessions since the last consolidation before it is due (default ${fieldDefault('dream', 'minSessions')})` },
    'max-delete': { type: 'number', min: 0, describe: `most memories one run may delete, in percent (default ${fieldDefault('dream', 'maxDelete')})` },
    engine: {
      type: 'string',
      choices: ENGINES,
      describe: 'local (deterministic), or claude to also propose obsolete memories, validated one by one (default: config, else local)',
    },
    model: { type: 'string', describe: 'model for --engine claude' },
  },
  examples: [
    ['$0 dream --status', 'is a consolidation due, and why'],
    ['$0 dream --force --dry-run', 'see what it would change, and why'],
    ['$0 dream --force --dry-run --diff', 'the same, with the full diff'],
    ['$0 dream --hook', 'in .claude/settings.json under hooks.SessionEnd'],
    ['$0 dream --undo', 'put back what the last run changed'],
    ['$0 dream --force --restructure --dry-run', 'see the full two-layer restructure'],
  ],
  fastPath: { when: 'hook' },
} as const satisfies CommandTable;
