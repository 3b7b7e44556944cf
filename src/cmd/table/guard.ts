import type { CommandTable } from '../../shell/command-table.js';

export const guard = {
  name: 'guard',
  command: 'guard',
  describe: 'Judge a Write or Edit into the memory directory before it happens (PreToolUse input on stdin); exit 1 when it would be refused',
  flags: {
    hook: { type: 'boolean', default: false, fast: true, describe: 'answer a Claude Code PreToolUse hook (JSON in; a deny decision out when the write breaks the memory)' },
  },
  examples: [
    ['$0 guard < pretooluse.json', 'would this write be refused, and why'],
    ['$0 guard --hook', 'in .claude/settings.json under hooks.PreToolUse, matcher Write|Edit|MultiEdit'],
  ],
  fastPath: { when: 'hook' },
} as const satisfies CommandTable;
