import { messages } from '../core/messages.js';
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
  /** Save a secret in a private memory as it is. */
  allowSecret?: boolean | undefined;
  /** Save the secrets replaced by [REDACTED]. */
  redact?: boolean | undefined;
}

/** `memdir save`: one topic file and its pointer, in one step. */
export async function runSave(options: SaveOptions, output: Output): Promise<number> {
  const dir = resolveChecked(options, output).dir;
  const body = options.body ?? (await readStdin());
  const clean = options.redact ? redactSecrets : (text: string) => text;
  const result = await saveMemory(dir, {
    type: options.type,
    name: clean(options.name),
    description: clean(options.description),
    body: clean(body),
    ...(options.allowSecret && { allowSecret: true }),
  });
  if (options.json) output.json(result);
  else {
    output.out(`${result.created ? 'saved' : 'updated'} ${result.file}`);
    output.info(output.colors.dim(messages.savedIn(result.dir)));
  }
  if (!result.loaded) output.warn(messages.pointerNotLoaded(result.file));
  return 0;
}

export interface ForgetOptions extends GlobalArgs {
  memory: string;
}

/** `memdir forget`: a topic file and every pointer to it, in one step. */
export async function runForget(options: ForgetOptions, output: Output): Promise<number> {
  const result = await forgetMemory(resolveChecked(options, output).dir, options.memory);
  if (options.json) output.json(result);
  else {
    const parts = [result.removedFile ? 'file' : '', result.removedPointers ? `${result.removedPointers} pointer(s)` : ''].filter(Boolean);
    output.out(`forgot ${result.file} (${parts.join(' and ') || 'nothing left to remove'})`);
  }
  return 0;
}
