import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { shellWord } from '../core/shell-word.js';
import { loadConfig } from '../config/find.js';
import type { GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { refuseReadOnly } from '../store/atomic.js';
import { requireWorkingDirectory } from '../store/cwd.js';
import { packageDir } from '../store/templates.js';
import { checkHookCommand, findMemdir, hookEnv } from './executable.js';
import { commandPrefix, hookSubcommands, installSettings, plannedSettings, settingsFile, settingsHooks, SCOPES, uninstallSettings, type HookEvent, type Scope } from './claude-settings.js';
import { gitHookState, installGitHook, uninstallGitHook, worktreeRoot } from './git-hook.js';
import type { HookRow } from '../claude-code/hook-row.js';

export interface HooksCommandOptions extends GlobalArgs {
  action: 'install' | 'uninstall' | 'status';
  git: boolean;
  claude: boolean;
  scope?: Scope | undefined;
  command?: string | undefined;
  withContext: boolean;
  withDocs?: boolean | undefined;
  guard: boolean;
  /** Stop → `memdir session --hook` as well (on unless --no-session). */
  session: boolean;
}

/** The project's own memdir (a devDependency) as Claude Code finds it: it sets CLAUDE_PROJECT_DIR to the folder whose .claude/ holds the settings. */
const PROJECT_MEMDIR = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/memdir';

/**
 * `bin` leads to the memdir running now (npm links a devDependency's bin there): a file of that name a
 * clone committed is the clone's program, and install never makes every prompt run it.
 */
function isThisMemdir(bin: string): boolean {
  try {
    return fs.realpathSync(bin) === fs.realpathSync(path.join(packageDir(), 'bin', 'memdir.cjs'));
  } catch {
    return false;
  }
}

/**
 * How the Claude Code hooks invoke memdir when neither --command nor hooks.command says: a command
 * Claude Code can run from its own environment (`sh -c` on the user's PATH, without the folders npx
 * adds). The project's own memdir by `$CLAUDE_PROJECT_DIR`: the same text in every clone and from
 * any folder the session moves to, and no npm start-up on every prompt (as `npx --no-install memdir`
 * would cost, needing npm on PATH too). Else `memdir` when that PATH has it; else the node and bin
 * of this memdir, resolved. User settings serve every project, so they name no project's folder.
 */
function defaultCommand(scope: Scope, project: string): string {
  const env = hookEnv(project);
  if (scope !== 'user' && isThisMemdir(path.join(project, 'node_modules', '.bin', 'memdir')) && checkHookCommand(PROJECT_MEMDIR, project, env).runs) return PROJECT_MEMDIR;
  if (checkHookCommand('memdir', project, env).runs) return 'memdir';
  return `${shellWord(process.execPath)} ${shellWord(path.join(packageDir(), 'bin', 'memdir.cjs'))}`;
}

interface Where {
  cwd: string;
  /** The worktree's top folder, or the working directory outside git. */
  project: string;
  inGit: boolean;
}

function where(): Where {
  const cwd = requireWorkingDirectory();
  const top = worktreeRoot(cwd);
  return { cwd, project: top ?? cwd, inGit: top !== undefined };
}

/** --git and --claude as asked; neither means both (git only inside a repository). */
function targets(args: HooksCommandOptions, place: Where): { git: boolean; claude: boolean } {
  if (args.git || args.claude) return { git: args.git, claude: args.claude };
  return { git: place.inGit, claude: true };
}

/**
 * The configuration, validated for every action; `install` without --command takes its command from
 * `hooks.command` (the user's own config, or a project's the user trusts).
 */
function configuredCommand(args: HooksCommandOptions, output: Output, place: Where): string | undefined {
  const reads = args.action === 'install' && args.command === undefined;
  const loaded = loadConfig({ dir: place.project, cwd: place.cwd, trustProjectSettings: args.trustProjectSettings || undefined, sections: reads ? ['hooks'] : [] });
  for (const warning of loaded.warnings) output.warn(warning);
  return reads ? loaded.config.hooks.command : undefined;
}

function install(args: HooksCommandOptions, output: Output, place: Where, configured: string | undefined): number {
  const which = targets(args, place);
  const explicit = args.command ?? configured;
  const report: Record<string, unknown> = {};
  const scope = args.scope ?? 'local';
  const command = explicit ?? defaultCommand(scope, place.project);
  const file = settingsFile(scope, place.project);
  const subs = hookSubcommands({ withContext: args.withContext, withDocs: args.withDocs, withSession: args.session !== false });
  const events = (Object.keys(subs) as HookEvent[]).filter((e) => (e !== 'PreToolUse' || args.guard) && subs[e].length > 0);
  // A settings file memdir will not edit stops the install before anything is changed.
  if (which.claude) plannedSettings(file, events, command, subs);
  if (which.git) {
    const { changed, place: hook } = installGitHook(place.cwd, explicit);
    report.git = { file: hook.file, kind: hook.kind, changed };
    output.info(changed ? `memdir hooks: pre-commit installed in ${hook.file}` : `memdir hooks: pre-commit already installed in ${hook.file}`);
  }
  if (which.claude) {
    const added = installSettings(file, events, command, subs);
    report.claude = { file, command, added };
    output.info(added.length > 0 ? `memdir hooks: ${added.join(', ')} → ${command} in ${file}` : `memdir hooks: Claude Code hooks already installed in ${file}`);
    const check = checkHookCommand(command, place.project, hookEnv(place.project));
    if (check.runs === false) output.warn(messages.hookInstalledWouldNotRun(command, check.detail));
    if (args.withDocs && !process.env.ANTHROPIC_API_KEY) output.warn(messages.docsHookNeedsKey());
  }
  if (args.json) output.json(report);
  return 0;
}

function uninstall(args: HooksCommandOptions, output: Output, place: Where): number {
  const which = targets(args, place);
  const report: { git?: { file: string; changed: boolean }; claude?: { file: string; removed: string[] }[] } = {};
  const scopes: Scope[] = args.scope ? [args.scope] : ['local', 'project'];
  // A settings file memdir will not edit (not JSON, read-only) stops the removal before anything is changed.
  if (which.claude) for (const scope of scopes) if (settingsHooks(settingsFile(scope, place.project)).some((hook) => hook.memdir)) refuseReadOnly(settingsFile(scope, place.project));
  if (which.git) {
    const { changed, place: hook } = uninstallGitHook(place.cwd);
    report.git = { file: hook.file, changed };
    output.info(changed ? `memdir hooks: pre-commit removed from ${hook.file}` : 'memdir hooks: no memdir pre-commit hook installed');
  }
  if (which.claude) {
    report.claude = scopes.map((scope) => {
      const file = settingsFile(scope, place.project);
      const removed = uninstallSettings(file, args.command);
      if (removed.length > 0) output.info(`memdir hooks: removed ${removed.join(', ')} from ${file}`);
      return { file, removed };
    });
  }
  if (args.json) output.json(report);
  return 0;
}

export type StatusRow = HookRow;

/** Each hook of the project in the working directory (of `scope`, else every scope), whose it is and whether memdir's would run; nothing is run. */
export function hookStatusRows(scope?: Scope, place: Where = where()): StatusRow[] {
  const rows: StatusRow[] = [];
  const env = hookEnv(place.project);
  if (place.inGit) {
    const state = gitHookState(place.cwd);
    if (state.installed) {
      const command = state.command ?? 'memdir';
      rows.push({
        hook: `git pre-commit (${state.place.kind})`,
        file: state.place.file,
        command: `${command} lint --staged`,
        owner: 'memdir',
        ...(state.block === undefined ? {} : { block: state.block }),
        ...(state.command === undefined ? findMemdir(place.project, env) : checkHookCommand(state.command, place.project, env)),
      });
    }
    if (state.others) rows.push({ hook: `git pre-commit (${state.place.kind})`, file: state.place.file, command: '(another hook in the script)', owner: 'other' });
  }
  const scopes = scope ? [scope] : SCOPES;
  for (const scope of scopes) {
    const file = settingsFile(scope, place.project);
    for (const hook of settingsHooks(file)) {
      const prefix = commandPrefix(hook.command);
      rows.push({
        hook: `Claude Code ${hook.event} (${scope})`,
        file,
        command: hook.command,
        owner: hook.memdir ? 'memdir' : 'other',
        event: hook.event,
        ...(hook.timeout === undefined ? {} : { timeout: hook.timeout }),
        ...(hook.memdir ? checkHookCommand(prefix, place.project, env) : {}),
      });
    }
  }
  return rows;
}

/** Each hook, whose it is and whether memdir's would run; exit 1 when one of memdir's would not. */
function status(args: HooksCommandOptions, output: Output, place: Where): number {
  // What doctor needs to run a hook is not part of the report.
  const rows = hookStatusRows(args.scope, place).map(({ program: _, timeout: __, event: ___, block: ____, ...row }) => row);
  const broken = rows.filter((row) => row.runs === false).length;
  if (args.json) output.json({ hooks: rows });
  else {
    if (rows.length === 0) output.out('memdir hooks: none installed (memdir hooks install)');
    for (const row of rows) {
      const state = row.owner === 'other' ? 'another tool' : `memdir, ${row.runs ? `found: ${row.detail} (not run)` : row.detail}`;
      output.out(`${row.hook}: ${row.command}\n  ${row.file}\n  ${state}`);
    }
  }
  if (broken === 0) return 0;
  output.warn(messages.hooksWouldNotRun(broken));
  return 1;
}

/** `memdir hooks install|uninstall|status`. */
export async function runHooksCommand(args: HooksCommandOptions, output: Output): Promise<number> {
  if (args.command !== undefined && !args.command.trim()) throw new UsageError(messages.hooksCommandEmpty());
  const place = where();
  const configured = configuredCommand(args, output, place);
  if (args.action === 'install') return install(args, output, place, configured);
  if (args.action === 'uninstall') return uninstall(args, output, place);
  return status(args, output, place);
}
