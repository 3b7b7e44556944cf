import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExitCode, MemdirError, UsageError } from '../core/errors.js';
import { messages, printable } from '../core/messages.js';
import { loadConfig, type LoadedConfig } from '../config/find.js';
import { sectionSettings, type SectionSettings } from '../config/sections.js';
import { resolveFor, type GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import type { SyncBackend } from './backend.js';
import { runSync, type SyncMode, type SyncReport } from './run.js';
import { ensureSyncStateDir, PERSONAL_ROOT, shownKey, TEAM_ROOT, type SyncRoot } from './team.js';
import { summaryLine } from './summary.js';
import { privateRepo, sameManifest, teamManifest } from './no-change.js';
import { checkStatePath } from '../store/state-path.js';
import { recordNoChange } from './no-change-record.js';
import { lazyRequire } from '../core/lazy.js';
import { withDirLock } from '../store/lock.js';
import { networkTimeoutMs } from './network.js';

export interface SyncCommandOptions extends GlobalArgs {
  action?: SyncMode | undefined;
  remote?: string | undefined;
  backend?: 'git' | 'http' | undefined;
  url?: string | undefined;
  repo?: string | undefined;
  branch?: string | undefined;
  redact: boolean;
  write: boolean;
  prune: boolean;
  dryRun: boolean;
  resolve?: string | undefined;
  ours: boolean;
  theirs: boolean;
  scope?: 'team' | 'personal' | undefined;
  allowSecret?: boolean | undefined;
}

type SyncSettings = SectionSettings<'sync'>;

export const DEFAULT_BRANCH = 'memdir/team';
/** The lock a sync holds (under `.memdir/`), and how many network timeouts a sync waits for another one to finish. */
const SYNC_LOCK = path.join('sync', 'run.lock');
const SYNC_LOCK_WAIT_RUNS = 4;
/** Where the HTTP backend's bearer token is read from; never from a flag (it would land in shell history). */
export const TOKEN_ENV = 'MEMDIR_SYNC_TOKEN';
/** The personal remote from the environment (the user's own, like a flag). */
export const PERSONAL_REMOTE_ENV = 'MEMDIR_SYNC_PERSONAL_REMOTE';
export const PERSONAL_BRANCH_PREFIX = 'memdir/personal/';

/** A ref-safe name part: every character outside [A-Za-z0-9] becomes '-', long ones end in a hash. */
function refPart(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'memory';
  return clean.length <= 80 ? clean : `${clean.slice(0, 80)}-${crypto.createHash('sha256').update(text).digest('hex').slice(0, 8)}`;
}

/**
 * The default branch of personal memory, one per project and the same on each of the person's
 * machines: named after the project's origin URL (host and path; no scheme, user or .git), which
 * two clones of a project share wherever they sit; without an origin, after the memory folder
 * (Claude Code's sanitized project path, or the folder itself).
 */
export async function personalBranch(memdir: string): Promise<string> {
  const origin = await (async () => (await (await projectGit()).raw(['remote', 'get-url', 'origin'])).trim())().catch(() => '');
  return personalBranchName(origin || undefined, memdir);
}

/** personalBranch's name from the origin URL (when there is one) or the memory folder. Pure. */
export function personalBranchName(origin: string | undefined, memdir: string): string {
  if (origin) {
    const hostAndPath = origin
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .replace(/^[^/@]*@/, '')
      .replace(/\.git\/?$/, '');
    return PERSONAL_BRANCH_PREFIX + refPart(hostAndPath);
  }
  const folder = path.basename(memdir) === 'memory' ? path.basename(path.dirname(memdir)) : memdir;
  return PERSONAL_BRANCH_PREFIX + refPart(folder);
}

/** A URL as it may be shown: credentials in it are git's business, never printed. */
export function displayUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

/** The project's repository is where the command runs: Claude Code keeps the memory directory itself outside it (~/.claude/projects/…). */
async function projectGit() {
  const { simpleGit } = lazyRequire<typeof import('simple-git')>('simple-git');
  return simpleGit(process.cwd());
}

/** `--remote` as a URL or path (kept, made absolute when it is a local path), else a remote name of the project's repository. */
async function gitRemoteUrl(remote: string): Promise<string> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || /^[^/\\]+@[^/\\]+:/.test(remote)) return remote;
  if (/[/\\]/.test(remote) || remote.startsWith('.') || fs.existsSync(remote)) return path.resolve(remote);
  try {
    return (await (await projectGit()).raw(['remote', 'get-url', remote])).trim();
  } catch {
    throw new MemdirError(messages.syncNoRemote(remote, process.cwd()), { hint: 'pass --remote URL, or add the remote with `git remote add`' });
  }
}

async function gitAuthor(): Promise<{ name: string; email: string }> {
  const git = await projectGit();
  const read = async (key: string) => (await git.getConfig(key)).value?.trim() || undefined;
  const name = (await read('user.name').catch(() => undefined)) ?? 'memdir';
  const email = (await read('user.email').catch(() => undefined)) ?? `memdir@${os.hostname()}`;
  // fast-import reads the ident line literally: no angle brackets or newlines in it.
  return { name: name.replace(/[<>\n]/g, ''), email: email.replace(/[<>\n]/g, '') };
}

/** owner/repo from a git remote URL (https, ssh, scp-like). */
function repoSlug(url: string): string | undefined {
  return /[/:]([^/:]+\/[^/]+?)(?:\.git)?\/?$/.exec(url)?.[1];
}

async function chooseBackend(
  memdir: string,
  options: SyncCommandOptions,
  settings: SyncSettings,
  warn: (text: string) => void,
): Promise<{ backend: SyncBackend; git?: { url: string; branch: string } }> {
  const kind = options.scope === 'personal' ? 'git' : (options.backend ?? settings.backend);
  if (kind === 'http') {
    const url = options.url ?? settings.url;
    if (!url) throw new UsageError(messages.syncNeedsUrl());
    let repo = options.repo ?? settings.repo;
    if (!repo) repo = repoSlug(await gitRemoteUrl(options.remote ?? settings.remote).catch(() => ''));
    if (!repo) throw new UsageError(messages.syncNeedsRepo());
    const { httpBackend } = await import('./http-backend.js');
    return { backend: httpBackend({ url, repo, token: process.env[TOKEN_ENV] }) };
  }
  const personal = options.scope === 'personal';
  const given = personal ? personalRemote(options, settings) : (options.remote ?? settings.remote);
  const url = await gitRemoteUrl(given);
  const { gitBackend } = await import('./git-backend.js');
  const branch = personal ? (options.branch ?? (await personalBranch(memdir))) : (options.branch ?? settings.branch ?? DEFAULT_BRANCH);
  const name = url === given || url === path.resolve(given) ? undefined : given;
  const backend = await gitBackend({
    repo: checkStatePath(memdir, privateRepo(memdir)),
    url,
    display: displayUrl(url),
    name,
    branch,
    author: gitAuthor,
    warn,
    what: personal ? 'personal memory' : undefined,
  });
  return { backend, git: { url, branch } };
}

/** Where personal memory goes: the flag, the environment, the user's own config; never a default (the project's origin is not the person's). */
function personalRemote(options: SyncCommandOptions, settings: SyncSettings): string {
  const remote = options.remote ?? (process.env[PERSONAL_REMOTE_ENV] || undefined) ?? settings.personalRemote;
  if (!remote) throw new UsageError(messages.syncPersonalNeedsRemote());
  return remote;
}

/** What a sync carries, and the checks of the flags that go with it (nothing touched yet). */
function syncRoot(options: SyncCommandOptions, settings: SyncSettings): SyncRoot {
  if (options.scope !== 'personal') {
    if (options.allowSecret) throw new UsageError(messages.syncAllowSecretNeedsPersonal());
    return TEAM_ROOT;
  }
  if (options.backend === 'http' || options.url) throw new UsageError(messages.syncPersonalGitOnly());
  // A secret leaves only for a remote the user's own config declares private (a project file cannot: the key is the user's).
  if (options.allowSecret && !settings.personalPrivate) throw new UsageError(messages.syncAllowSecretNeedsPrivate());
  return PERSONAL_ROOT;
}

function printReport(report: SyncReport, output: Output, root: SyncRoot): void {
  const { colors } = output;
  const paint: Record<string, (s: string) => string> = { pulled: colors.blue, pushed: colors.green, removed: colors.yellow, skipped: colors.yellow, refused: colors.red, conflict: colors.red };
  for (const file of report.files) {
    if (file.status === 'unchanged') continue;
    const label = (paint[file.status] ?? colors.dim)(file.status.padEnd(9));
    output.out(`${label} ${printable(shownKey(root, file.file))}${file.reason ? colors.dim(`  ${file.reason}`) : ''}`);
  }
  output.out(summaryLine(report.summary, report.remote, report));
}

/** `memdir sync [pull|push]`: share `<memdir>/team/` through a git remote or the HTTP contract. */
export async function runSyncCommand(options: SyncCommandOptions, output: Output): Promise<number> {
  if (options.write && !options.redact) throw new UsageError(messages.syncWriteNeedsRedact());
  const side = resolveSide(options);
  const memdir = resolveFor(options, output).dir;
  const config = loadConfig({ dir: memdir, cwd: process.cwd(), trustProjectSettings: options.trustProjectSettings || undefined, sections: ['sync'] });
  for (const warning of config.warnings) output.warn(warning);
  const settings = sectionSettings('sync', config.config.sync);
  const root = syncRoot(options, settings);
  await ensureSyncStateDir(memdir);
  if (side) {
    // The remote names the sync state to change and the hash it compares by; it is not contacted.
    const resolved = await withDirLock(
      memdir,
      async () => {
        const { backend } = await chooseBackend(memdir, options, settings, (text) => output.warn(text));
        const { resolveConflict } = await import('./resolve.js');
        return resolveConflict(memdir, backend, options.resolve!, side, root);
      },
      { name: SYNC_LOCK, timeoutMs: SYNC_LOCK_WAIT_RUNS * networkTimeoutMs() },
    );
    if (options.json) output.json(resolved);
    else output.out(messages.syncResolved(resolved.file, resolved.side));
    return ExitCode.ok;
  }
  // One sync of a directory at a time: two on one private clone fail on each other's ref locks.
  const report = await withDirLock(memdir, () => lockedSync(memdir, options, config, settings, output, root), { name: SYNC_LOCK, timeoutMs: SYNC_LOCK_WAIT_RUNS * networkTimeoutMs() });
  if (options.json) output.json(report);
  else printReport(report, output, root);
  return report.summary.refused > 0 || report.summary.conflict > 0 ? ExitCode.findings : ExitCode.ok;
}

/** `--resolve FILE --ours|--theirs`: which side, checked before anything is read or written. */
function resolveSide(options: SyncCommandOptions): 'ours' | 'theirs' | undefined {
  if (options.resolve === undefined) {
    if (options.ours || options.theirs) throw new UsageError(messages.syncSideNeedsResolve());
    return undefined;
  }
  if (options.ours === options.theirs) throw new UsageError(messages.syncResolveNeedsSide());
  if (options.action || options.dryRun || options.prune || options.redact || options.write) throw new UsageError(messages.syncResolveAlone());
  return options.ours ? 'ours' : 'theirs';
}

/** The sync itself, under the directory's sync lock. */
async function lockedSync(memdir: string, options: SyncCommandOptions, config: LoadedConfig, settings: SyncSettings, output: Output, root: SyncRoot): Promise<SyncReport> {
  const { backend, git } = await chooseBackend(memdir, options, settings, (text) => output.warn(text));
  // The command line the no-change fast path answers (src/sync/fast.ts): git, origin, no flags, no config.
  const plain =
    git && config.files.length === 0 && root === TEAM_ROOT && !options.action && !options.remote && !options.backend && !options.branch && !options.redact && !options.prune && !options.dryRun;
  const before = plain ? teamManifest(memdir) : undefined;
  const report = await runSync(memdir, backend, {
    mode: options.action ?? 'sync',
    redact: options.redact || settings.redact,
    write: options.write,
    prune: options.prune,
    dryRun: options.dryRun,
    root,
    allowSecrets: options.allowSecret === true,
  });
  // Personal runs leave the team record alone: they touch neither team/ nor its branch (and state.json is in the fingerprint).
  if (!options.dryRun && root === TEAM_ROOT) {
    const { unchanged, ...rest } = report.summary;
    const after = before && Object.values(rest).every((count) => count === 0) && report.retries === 0 ? teamManifest(memdir) : undefined;
    // Recorded only when no file moved while it ran: the stats then describe what was compared.
    recordNoChange(
      memdir,
      git && before && after && sameManifest(before, after) ? { cwd: process.cwd(), url: git.url, remote: report.remote, branch: git.branch, files: unchanged, manifest: after } : undefined,
    );
  }
  return report;
}
