import path from 'node:path';
import { messages } from '../core/messages.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { resolveChecked, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { listMemories } from './list.js';
import { showMemory } from './show.js';

export interface ListOptions extends GlobalArgs {
  type?: string | undefined;
}

const age = (days: number) => (days === 0 ? 'today' : days === 1 ? '1 day' : `${days} days`);

/** `memdir list`: one line per memory, newest first. */
export async function runList(options: ListOptions, output: Output): Promise<number> {
  const { memories, unreadable } = await listMemories(resolveChecked(options, output).dir, { type: options.type });
  for (const file of unreadable) {
    const isIndex = path.posix.basename(file.path) === INDEX_FILE;
    output.warn(isIndex ? messages.indexUnreadable(file.path, file.problem) : messages.leftOut('list', file.path, file.problem));
  }
  if (options.json) {
    output.json(memories);
    return 0;
  }
  if (memories.length === 0) output.info(messages.listNoMemories());
  const { dim, yellow } = output.colors;
  for (const m of memories) {
    const state = m.indexed === false ? ` ${yellow('(not in the index)')}` : '';
    output.out(
      `${(m.type ?? '?').padEnd(9)} ${dim(age(m.ageDays).padStart(8))}  ${m.scope.padEnd(7)}  ${m.path}${state}\n${' '.repeat(29)}${m.name ?? ''}${m.description ? ` — ${m.description}` : ''}`,
    );
  }
  return 0;
}

export interface ShowOptions extends GlobalArgs {
  memory: string;
}

/** `memdir show`: one memory with its freshness header. */
export async function runShow(options: ShowOptions, output: Output): Promise<number> {
  const shown = await showMemory(resolveChecked(options, output).dir, options.memory);
  if (options.json) output.json(shown);
  else {
    output.write(shown.text);
    if (shown.scope === 'team') output.info(output.colors.dim(messages.teamMemoryShown(shown.path)));
  }
  return 0;
}
