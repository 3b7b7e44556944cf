import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '../core/errors.js';
import { refuseReadOnly, writeFileAtomic } from '../store/atomic.js';
import { renderTemplate } from '../store/templates.js';
import { appendItem, appendMember, jsonStyle, memberOf, parseJsonText, removeElement, type JsonNode } from './json-text.js';
import type { HookEvent } from '../claude-code/hook-row.js';

export type { HookEvent };

/**
 * Claude Code settings entries: one matcher group per event, each running
 * `<command> <subcommand> --hook`. Entries are recognised by their command,
 * so installing twice changes nothing and uninstall finds them again.
 */

export type Scope = 'local' | 'project' | 'user';
export const SCOPES: readonly Scope[] = ['local', 'project', 'user'];

/** The tools an event's entry is limited to (Claude Code's `matcher`): the guard judges writes only, and Claude Code starts no process for the rest. */
export const HOOK_MATCHERS: Partial<Record<HookEvent, string>> = { PreToolUse: 'Write|Edit|MultiEdit' };

/** Event → the memdir subcommands it runs, one entry each, in order. */
export type HookSubcommands = Record<HookEvent, string[]>;

/** Entries installed only when asked for: `docs --hook` calls the model after every turn, so it needs a key and a yes. */
const OPT_IN = /^docs\s/;
/** Entries installed unless declined (`--no-session`). */
const OPT_OUT = /^session\s/;

/**
 * Event → memdir subcommands, from templates/hooks/claude-settings.json. SessionStart adds team memory
 * only (Claude Code loads the private index itself); `withContext`: the whole context. `withDocs` adds
 * the Stop hook of `memdir docs`, `withSession: false` leaves out the session notes' Stop hook;
 * uninstall and status recognise every entry either way (`all`).
 */
export function hookSubcommands(options: { withContext?: boolean; withDocs?: boolean; withSession?: boolean; all?: boolean } = {}): HookSubcommands {
  const raw = JSON.parse(renderTemplate('hooks/claude-settings.json', {})) as Record<HookEvent, string | string[]>;
  const wanted = (sub: string) => options.all || ((options.withDocs || !OPT_IN.test(sub)) && (options.withSession !== false || !OPT_OUT.test(sub)));
  const subs = Object.fromEntries(Object.entries(raw).map(([event, value]) => [event, (Array.isArray(value) ? value : [value]).filter(wanted)])) as HookSubcommands;
  if (options.withContext) subs.SessionStart = subs.SessionStart.map((sub) => sub.replace(/\s+--team-only\b/, ''));
  return subs;
}

/** Whether `command` is one of memdir's entries for `event`. */
function isMemdirEntry(subs: HookSubcommands, event: HookEvent, command: string, prefix?: string): boolean {
  return (subs[event] ?? []).some((sub) => isMemdirCommand(command, sub, prefix));
}

/** The command an installed entry runs memdir by: its text before `<subcommand> --hook`. */
export function commandPrefix(command: string): string {
  return command.replace(/\s+\S+\s+--hook(?:\s.*)?$/, '');
}

export function settingsFile(scope: Scope, projectRoot: string): string {
  if (scope === 'user') return path.join(process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude'), 'settings.json');
  return path.join(projectRoot, '.claude', scope === 'local' ? 'settings.local.json' : 'settings.json');
}

/** `command` runs memdir's `subcommand --hook`: memdir by any path or runner (`npx memdir`, `/opt/bin/memdir`, `node …/memdir.cjs`), or `prefix`. */
export function isMemdirCommand(command: string, subcommand: string, prefix?: string): boolean {
  const [sub] = subcommand.split(' ');
  // Any form of the subcommand memdir writes (SessionStart's with or without --team-only).
  if (prefix !== undefined && command.startsWith(`${prefix} ${sub} --hook`) && commandPrefix(command) === prefix) return true;
  return new RegExp(`(^|[\\s/"'])memdir(\\.c?js)?["']?\\s+${sub}\\s+--hook(\\s|$)`).test(command);
}

interface CommandEntry {
  event: HookEvent;
  group: number;
  entry: number;
  command: string;
  /** The entry's `timeout` (seconds), when it sets one. */
  timeout?: number | undefined;
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
        if (command?.kind !== 'scalar' || text[command.start] !== '"') return;
        const timeout = memberOf(entry, 'timeout')?.value;
        const seconds = timeout?.kind === 'scalar' ? Number(text.slice(timeout.start, timeout.end)) : Number.NaN;
        found.push({
          event: member.key as HookEvent,
          group: g,
          entry: e,
          command: JSON.parse(text.slice(command.start, command.end)) as string,
          ...(Number.isFinite(seconds) && seconds > 0 ? { timeout: seconds } : {}),
        });
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
  /** The entry's `timeout` in seconds, when set (Claude Code's default otherwise). */
  timeout?: number | undefined;
}

/** Every hook command in the settings file of the given events, memdir's marked. */
export function settingsHooks(file: string): SettingsHook[] {
  const text = readSettings(file);
  if (text === undefined) return [];
  const subs = hookSubcommands({ all: true });
  return commandsOf(parseJsonText(text), text)
    .filter((c) => c.event in subs)
    .map((c) => ({ event: c.event, command: c.command, memdir: isMemdirEntry(subs, c.event, c.command), ...(c.timeout === undefined ? {} : { timeout: c.timeout }) }));
}

/**
 * A settings file memdir creates. The schema key is one Claude Code documents (editors complete the
 * file through it); left alone with it after uninstall, the file is known to be memdir's and goes.
 */
const NEW_SETTINGS = '{\n  "$schema": "https://json.schemastore.org/claude-code-settings.json"\n}\n';

/** Adds memdir's entries for `events` that are not there yet; the events added. */
export function installSettings(file: string, events: HookEvent[], command: string, subs: HookSubcommands = hookSubcommands()): HookEvent[] {
  const { text, added } = plannedSettings(file, events, command, subs);
  if (added.length > 0) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, text);
  }
  return added;
}

/**
 * The settings text with memdir's entries for `events` added, and the events added; nothing is
 * written. Throws, naming the file, for a settings file memdir will not edit (not JSON, hooks not
 * lists, read-only), so a caller can check before it changes anything else.
 */
export function plannedSettings(file: string, events: HookEvent[], command: string, subs: HookSubcommands = hookSubcommands()): { text: string; added: HookEvent[] } {
  const original = readSettings(file);
  refuseReadOnly(file);
  return withEntries(original ?? NEW_SETTINGS, file, events, command, subs);
}

function withEntries(original: string, file: string, events: HookEvent[], command: string, subs: HookSubcommands): { text: string; added: HookEvent[] } {
  let text = original;
  const style = jsonStyle(text);
  const added: HookEvent[] = [];
  for (const event of events) {
    for (const sub of subs[event] ?? []) {
      const root = parseJsonText(text);
      if (commandsOf(root, text).some((c) => c.event === event && isMemdirCommand(c.command, sub, command))) continue;
      text = withEntry(text, root, file, event, `${command} ${sub}`, style);
      if (!added.includes(event)) added.push(event);
    }
  }
  return { text, added };
}

/** `text` with one group for `event` running `command` appended. */
function withEntry(text: string, root: JsonNode, file: string, event: HookEvent, command: string, style: ReturnType<typeof jsonStyle>): string {
  const hooks = [{ type: 'command', command }];
  const matcher = HOOK_MATCHERS[event];
  const group = matcher === undefined ? { hooks } : { matcher, hooks };
  const all = memberOf(root, 'hooks')?.value;
  const list = all && memberOf(all, event)?.value;
  if (!all) return appendMember(text, root, 'hooks', { [event]: [group] }, style);
  if (!list) return appendMember(text, all, event, [group], style);
  if (list.kind === 'array') return appendItem(text, list, group, style);
  throw new InputError(file, `"hooks.${event}" is not a list; left as it is`);
}

/**
 * Removes memdir's entries, each with its group when the group held nothing else (install adds a
 * group of its own). The event lists and `hooks` object this leaves empty go only where memdir made
 * them, and a file left as memdir creates one goes too; the commands removed.
 */
export function uninstallSettings(file: string, command: string | undefined): string[] {
  const installed = readSettings(file);
  if (installed === undefined) return [];
  const subs = hookSubcommands({ all: true });
  const removed: CommandEntry[] = [];
  let text = installed;
  for (;;) {
    const root = parseJsonText(text);
    const mine = commandsOf(root, text).find((c) => c.event in subs && isMemdirEntry(subs, c.event, c.command, command));
    if (!mine) break;
    removed.push(mine);
    const list = memberOf(memberOf(root, 'hooks')!.value, mine.event)!.value;
    const entries = memberOf((list as Extract<JsonNode, { kind: 'array' }>).items[mine.group]!, 'hooks')!.value;
    text = childCount(entries) === 1 ? removeElement(text, list, mine.group) : removeElement(text, entries, mine.entry);
  }
  if (removed.length === 0) return [];
  text = withoutMadeContainers(text, installed, file, removed);
  if (text === NEW_SETTINGS && !fs.lstatSync(file).isSymbolicLink()) fs.rmSync(file);
  else writeFileAtomic(file, text);
  return removed.map((c) => c.command);
}

/**
 * `text` (memdir's entries removed) without the containers memdir made: of the ways to drop the
 * emptied event lists and `hooks`, the one that drops most among those after which installing again
 * gives back `installed` (a `{"hooks": {}}` the user wrote on one line stays). An empty list or
 * object of the user's written just as memdir writes one cannot be told apart, and goes (it held
 * nothing). None gives it back (the file was edited since): every emptied container goes.
 */
function withoutMadeContainers(text: string, installed: string, file: string, removed: CommandEntry[]): string {
  const prefix = commandPrefix(removed[0]!.command);
  // The subcommands as installed (SessionStart's with or without --team-only), so installing them again gives `installed` back.
  const asInstalled = (event: HookEvent) => removed.filter((c) => c.event === event).map((c) => c.command.slice(prefix.length + 1));
  const subs = { ...hookSubcommands(), ...Object.fromEntries(removed.map((c) => [c.event, asInstalled(c.event)])) } as HookSubcommands;
  const events = (Object.keys(subs) as HookEvent[]).filter((e) => removed.some((c) => c.event === e));
  const emptied = events.filter((event) => {
    const list = memberOf(memberOf(parseJsonText(text), 'hooks')!.value, event)?.value;
    return list !== undefined && childCount(list) === 0;
  });
  const candidates: string[] = [];
  for (let mask = 0; mask < 1 << emptied.length; mask++) {
    let candidate = text;
    for (const [i, event] of emptied.entries()) if (mask & (1 << i)) candidate = dropMember(candidate, ['hooks', event]);
    candidates.push(candidate);
    if (childCount(memberOf(parseJsonText(candidate), 'hooks')!.value) === 0) candidates.push(dropMember(candidate, ['hooks']));
  }
  candidates.sort((a, b) => a.length - b.length);
  return candidates.find((candidate) => withEntries(candidate, file, events, prefix, subs).text === installed) ?? candidates[0]!;
}

/** `text` without the member at `keys` (an object path). */
function dropMember(text: string, keys: string[]): string {
  let parent = parseJsonText(text);
  for (const key of keys.slice(0, -1)) parent = memberOf(parent, key)!.value;
  return removeElement(text, parent, memberOf(parent, keys.at(-1)!)!.index);
}

function childCount(node: JsonNode): number {
  return node.kind === 'object' ? node.members.length : node.kind === 'array' ? node.items.length : 0;
}
