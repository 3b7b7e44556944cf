import { spawnSync } from 'node:child_process';
import { UsageError } from '../core/errors.js';
import { findConfig } from '../config/find.js';
import { RULES } from '../lint/rules/index.js';
import type { GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { refuseReadOnly } from '../store/atomic.js';
import { requireWorkingDirectory } from '../store/cwd.js';
import { hookSubcommands, installSettings, plannedSettings, settingsFile, settingsHooks, SCOPES, uninstallSettings, type HookEvent, type Scope } from './claude-settings.js';
import { gitHookState, installGitHook, uninstallGitHook, worktreeRoot } from './git-hook.js';

export interface HooksCommandOptions extends GlobalArgs {
  action: 'install' | 'uninstall' | 'status';
  git: boolean;
  claude: boolean;
  scope?: Scope | undefined;
  command?: string | undefined;
  withContext: boolean;
}

/** How the Claude Code hooks invoke memdir when neither --command nor hooks.command says. */
const DEFAULT_COMMAND = 'memdir';

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

/** The configured command (`hooks.command` in memdir.config.json), if any. */
function configuredCommand(place: Where): string | undefined {
  return findConfig(place.project, place.cwd, RULES).config.hooks?.command;
}

/** Whether `command --version` runs, from the project folder, as a hook would. */
function probe(command: string, cwd: string): { runs: boolean; detail: string } {
  const result = spawnSync('/bin/sh', ['-c', `${command} --version`], { cwd, encoding: 'utf8', timeout: 10_000 });
  const detail = (result.status === 0 ? result.stdout : result.stderr || result.error?.message || `exit ${result.status}`).trim().split('\n')[0] ?? '';
  return { runs: result.status === 0, detail };
}

function install(args: HooksCommandOptions, output: Output, place: Where): number {
  const which = targets(args, place);
  const explicit = args.command ?? configuredCommand(place);
  const report: Record<string, unknown> = {};
  const command = explicit ?? DEFAULT_COMMAND;
  const file = settingsFile(args.scope ?? 'local', place.project);
  const events = (Object.keys(hookSubcommands()) as HookEvent[]).filter((e) => e !== 'SessionStart' || args.withContext);
  // A settings file memdir will not edit stops the install before anything is changed.
  if (which.claude) plannedSettings(file, events, command);
  if (which.git) {
    const { changed, place: hook } = installGitHook(place.cwd, explicit);
    report.git = { file: hook.file, kind: hook.kind, changed };
    output.info(changed ? `memdir hooks: pre-commit installed in ${hook.file}` : `memdir hooks: pre-commit already installed in ${hook.file}`);
  }
  if (which.claude) {
    const added = installSettings(file, events, command);
    report.claude = { file, command, added };
    output.info(added.length > 0 ? `memdir hooks: ${added.join(', ')} → ${command} in ${file}` : `memdir hooks: Claude Code hooks already installed in ${file}`);
    if (!probe(command, place.project).runs) output.warn(`memdir hooks: "${command} --version" does not run here; the hooks will skip until it does (pass --command "npx memdir" or an absolute path)`);
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

interface StatusRow {
  hook: string;
  file: string;
  command: string;
  owner: 'memdir' | 'other';
  runs?: boolean | undefined;
  detail?: string | undefined;
}

function status(args: HooksCommandOptions, output: Output, place: Where): number {
  const rows: StatusRow[] = [];
  const probes = new Map<string, ReturnType<typeof probe>>();
  const probed = (command: string) => probes.get(command) ?? probes.set(command, probe(command, place.project)).get(command)!;
  if (place.inGit) {
    const state = gitHookState(place.cwd);
    if (state.installed) {
      const command = state.command ?? 'memdir';
      rows.push({
        hook: `git pre-commit (${state.place.kind})`,
        file: state.place.file,
        command: `${command} lint --staged`,
        owner: 'memdir',
        ...probed(state.command ?? findableMemdir(place.project)),
      });
    }
    if (state.others) rows.push({ hook: `git pre-commit (${state.place.kind})`, file: state.place.file, command: '(another hook in the script)', owner: 'other' });
  }
  const scopes = args.scope ? [args.scope] : SCOPES;
  for (const scope of scopes) {
    const file = settingsFile(scope, place.project);
    for (const hook of settingsHooks(file)) {
      const prefix = hook.command.replace(/\s+\S+\s+--hook.*$/, '');
      rows.push({ hook: `Claude Code ${hook.event} (${scope})`, file, command: hook.command, owner: hook.memdir ? 'memdir' : 'other', ...(hook.memdir ? probed(prefix) : {}) });
    }
  }
  if (args.json) {
    output.json({ hooks: rows });
    return 0;
  }
  if (rows.length === 0) output.out('memdir hooks: none installed (memdir hooks install)');
  for (const row of rows) {
    const state = row.owner === 'other' ? 'another tool' : row.runs ? `memdir, runs (${row.detail})` : `memdir, does not run: ${row.detail}`;
    output.out(`${row.hook}: ${row.command}\n  ${row.file}\n  ${state}`);
  }
  return 0;
}

/** The memdir the pre-commit block would find: node_modules/.bin, then PATH. */
function findableMemdir(project: string): string {
  return `"$(if [ -x "${project}/node_modules/.bin/memdir" ]; then echo "${project}/node_modules/.bin/memdir"; else echo memdir; fi)"`;
}

/** `memdir hooks install|uninstall|status`. */
export async function runHooksCommand(args: HooksCommandOptions, output: Output): Promise<number> {
  if (args.command !== undefined && !args.command.trim()) throw new UsageError('--command must not be empty');
  const place = where();
  if (args.action === 'install') return install(args, output, place);
  if (args.action === 'uninstall') return uninstall(args, output, place);
  return status(args, output, place);
}
