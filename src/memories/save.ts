import path from 'node:path';
import { messages } from '../core/messages.js';
import { isTeamPath, TEAM_DIR } from '../core/taxonomy.js';
import { redactSecrets } from '../core/secrets.js';
import { resolveChecked, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { readStdin } from '../shell/stdin.js';
import { forgetMemory, saveMemory } from '../store/memory-store.js';

export interface SaveOptions extends GlobalArgs {
  type: string;
  name: string;
  description: string;
  /** The memory text; read from stdin when absent. */
  body?: string | undefined;
  /** Write team memory (`<memdir>/team/`, its own MEMORY.md) rather than private memory. */
  team?: boolean | undefined;
  /** Save a secret in a private memory as it is. */
  allowSecret?: boolean | undefined;
  /** Save the secrets replaced by [REDACTED]. */
  redact?: boolean | undefined;
}

/** The directory a command writes: the private memory directory, or with `--team` its team/ folder. */
export function scopeDir(dir: string, team: boolean | undefined): string {
  return team ? path.join(dir, TEAM_DIR) : dir;
}

/** `memdir save`: one topic file and its pointer, in one step. */
export async function runSave(options: SaveOptions, output: Output): Promise<number> {
  const dir = scopeDir(resolveChecked(options, output).dir, options.team);
  const body = options.body ?? (await readStdin());
  const clean = options.redact ? redactSecrets : (text: string) => text;
  const result = await saveMemory(dir, {
    type: options.type,
    name: clean(options.name),
    description: clean(options.description),
    body: clean(body),
    ...(options.allowSecret && { allowSecret: true }),
  });
  const scope = options.team ? 'team' : 'private';
  if (options.json) output.json({ ...result, scope });
  else {
    output.out(`${result.created ? 'saved' : 'updated'} ${options.team ? `${TEAM_DIR}/` : ''}${result.file}`);
    output.info(output.colors.dim(messages.savedIn(result.dir)));
  }
  if (result.teamNamesake) output.warn(messages.teamNamesake(options.name.trim(), result.teamNamesake));
  if (!result.loaded) output.warn(messages.pointerNotLoaded(result.file));
  return 0;
}

export interface ForgetOptions extends GlobalArgs {
  memory: string;
  team?: boolean | undefined;
}

/** `memdir forget`: a topic file and every pointer to it, in one step. */
export async function runForget(options: ForgetOptions, output: Output): Promise<number> {
  const dir = scopeDir(resolveChecked(options, output).dir, options.team);
  // With --team, `team/file.md` (as list shows it) names the same file as `file.md`.
  const memory = options.team && isTeamPath(options.memory) && options.memory.endsWith('.md') ? options.memory.slice(TEAM_DIR.length + 1) : options.memory;
  const result = await forgetMemory(dir, memory);
  if (options.json) output.json({ ...result, scope: options.team ? 'team' : 'private' });
  else {
    const parts = [result.removedFile ? 'file' : '', result.removedPointers ? `${result.removedPointers} pointer(s)` : ''].filter(Boolean);
    output.out(`forgot ${options.team ? `${TEAM_DIR}/` : ''}${result.file} (${parts.join(' and ') || 'nothing left to remove'})`);
  }
  return 0;
}
