import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '../core/errors.js';
import { writeFileAtomic } from '../store/atomic.js';
import { renderTemplate } from '../store/templates.js';
import { appendItem, appendMember, jsonStyle, memberOf, parseJsonText, removeElement, type JsonNode } from './json-text.js';

/**
 * Claude Code settings entries: one matcher group per event, each running
 * `<command> <subcommand> --hook`. Entries are recognised by their command,
 * so installing twice changes nothing and uninstall finds them again.
 */

export type Scope = 'local' | 'project' | 'user';
export const SCOPES: readonly Scope[] = ['local', 'project', 'user'];
export type HookEvent = 'SessionStart' | 'UserPromptSubmit' | 'Stop' | 'SessionEnd';

/** Event → memdir subcommand, from templates/hooks/claude-settings.json. */
export function hookSubcommands(): Record<HookEvent, string> {
  return JSON.parse(renderTemplate('hooks/claude-settings.json', {})) as Record<HookEvent, string>;
}

export function settingsFile(scope: Scope, projectRoot: string): string {
  if (scope === 'user') return path.join(process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude'), 'settings.json');
  return path.join(projectRoot, '.claude', scope === 'local' ? 'settings.local.json' : 'settings.json');
}

/** `command` runs memdir's `subcommand --hook`: memdir by any path or runner (`npx memdir`, `/opt/bin/memdir`, `node …/memdir.cjs`), or `prefix`. */
export function isMemdirCommand(command: string, subcommand: string, prefix?: string): boolean {
  if (prefix !== undefined && command === `${prefix} ${subcommand}`) return true;
  const [sub] = subcommand.split(' ');
  return new RegExp(`(^|[\\s/"'])memdir(\\.c?js)?["']?\\s+${sub}\\s+--hook(\\s|$)`).test(command);
}

interface CommandEntry {
  event: HookEvent;
  group: number;
  entry: number;
  command: string;
}

function commandsOf(root: JsonNode, text: string): CommandEntry[] {
  const found: CommandEntry[] = [];
  const hooks = memberOf(root, 'hooks')?.value;
  if (hooks?.kind !== 'object') return found;
  for (const member of hooks.members) {
    if (member.value.kind !== 'array') continue;
    member.value.items.forEach((group, g) => {
      const entries = memberOf(group, 'hooks')?.value;
      if (entries?.kind !== 'array') return;
      entries.items.forEach((entry, e) => {
        const command = memberOf(entry, 'command')?.value;
        if (command?.kind === 'scalar' && text[command.start] === '"')
          found.push({ event: member.key as HookEvent, group: g, entry: e, command: JSON.parse(text.slice(command.start, command.end)) as string });
      });
    });
  }
  return found;
}

/** The settings text, or undefined when there is no file; not-JSON is reported, naming the file. */
function readSettings(file: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError(file, `cannot read (${(error as NodeJS.ErrnoException).code})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new InputError(file, `not valid JSON (${(error as Error).message}); left as it is`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError(file, 'not a JSON object; left as it is');
  const hooks = (value as Record<string, unknown>).hooks;
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))) throw new InputError(file, '"hooks" is not an object; left as it is');
  return text;
}

export interface SettingsHook {
  event: HookEvent;
  command: string;
  memdir: boolean;
}

/** Every hook command in the settings file of the given events, memdir's marked. */
export function settingsHooks(file: string): SettingsHook[] {
  const text = readSettings(file);
  if (text === undefined) return [];
  const subs = hookSubcommands();
  return commandsOf(parseJsonText(text), text)
    .filter((c) => c.event in subs)
    .map((c) => ({ event: c.event, command: c.command, memdir: isMemdirCommand(c.command, subs[c.event]) }));
}

/** Adds memdir's entries for `events` that are not there yet; the events added. */
export function installSettings(file: string, events: HookEvent[], command: string): HookEvent[] {
  const { text, added } = plannedSettings(file, events, command);
  if (added.length > 0) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, text);
  }
  return added;
}

/**
 * The settings text with memdir's entries for `events` added, and the events added; nothing is
 * written. Throws, naming the file, for a settings file memdir will not edit (not JSON, hooks not
 * lists), so a caller can check before it changes anything else.
 */
export function plannedSettings(file: string, events: HookEvent[], command: string): { text: string; added: HookEvent[] } {
  const original = readSettings(file);
  let text = original ?? '{}\n';
  const style = jsonStyle(text);
  const subs = hookSubcommands();
  const added: HookEvent[] = [];
  for (const event of events) {
    const root = parseJsonText(text);
    if (commandsOf(root, text).some((c) => c.event === event && isMemdirCommand(c.command, subs[event], command))) continue;
    const group = { hooks: [{ type: 'command', command: `${command} ${subs[event]}` }] };
    const hooks = memberOf(root, 'hooks')?.value;
    const list = hooks && memberOf(hooks, event)?.value;
    if (!hooks) text = appendMember(text, root, 'hooks', { [event]: [group] }, style);
    else if (!list) text = appendMember(text, hooks, event, [group], style);
    else if (list.kind === 'array') text = appendItem(text, list, group, style);
    else throw new InputError(file, `"hooks.${event}" is not a list; left as it is`);
    added.push(event);
  }
  return { text, added };
}

/**
 * Removes memdir's entries, then the groups, event lists and `hooks` object
 * they leave empty; a file left as `{}` was memdir's alone and goes, with a
 * `.claude/` folder it leaves empty. The commands removed.
 */
export function uninstallSettings(file: string, command: string | undefined): string[] {
  let text = readSettings(file);
  if (text === undefined) return [];
  const subs = hookSubcommands();
  const removed: string[] = [];
  for (;;) {
    const root = parseJsonText(text);
    const mine = commandsOf(root, text).find((c) => c.event in subs && isMemdirCommand(c.command, subs[c.event], command));
    if (!mine) break;
    removed.push(mine.command);
    const hooks = memberOf(root, 'hooks')!;
    const list = memberOf(hooks.value, mine.event)!;
    const group = (list.value as Extract<JsonNode, { kind: 'array' }>).items[mine.group]!;
    const entries = memberOf(group, 'hooks')!;
    const emptied = [
      { parent: entries.value, index: mine.entry },
      { parent: list.value, index: mine.group },
      { parent: hooks.value, index: list.index },
      { parent: root, index: hooks.index },
    ];
    // Remove the entry, or the outermost container that held nothing else.
    let level = 0;
    while (level < emptied.length - 1 && childCount(emptied[level]!.parent) === 1) level++;
    text = removeElement(text, emptied[level]!.parent, emptied[level]!.index);
  }
  if (removed.length === 0) return removed;
  if (childCount(parseJsonText(text)) === 0) {
    fs.rmSync(file);
    const folder = path.dirname(file);
    if (fs.readdirSync(folder).length === 0) fs.rmdirSync(folder);
  } else writeFileAtomic(file, text);
  return removed;
}

function childCount(node: JsonNode): number {
  return node.kind === 'object' ? node.members.length : node.kind === 'array' ? node.items.length : 0;
}
