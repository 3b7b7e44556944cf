import { messages } from '../core/messages.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { findSecrets, redactSecrets } from '../core/secrets.js';
import { remoteFailure, type RemoteView, type SyncBackend } from './backend.js';
import { keptLocalPointers, mergeTeamIndex } from './index-merge.js';
import { unchangedSummary, type FileStatus } from './summary.js';
import { caseCollisions, keyProblem } from './keys.js';
import { crashAt, pushBarrier } from '../store/test-hooks.js';
import {
  checkPulled,
  conflictCopies,
  conflictCopyKey,
  excludedKey,
  readBase,
  readTeam,
  removeConflictCopies,
  shownKey,
  TEAM_ROOT,
  writeBase,
  writeTeamFiles,
  type LocalTeam,
  type SyncRoot,
} from './team.js';

export type SyncMode = 'sync' | 'pull' | 'push';
export type { FileStatus } from './summary.js';

export interface SyncOptions {
  mode: SyncMode;
  /** Upload secrets redacted instead of refusing the file. */
  redact: boolean;
  /** With redact: rewrite the local file redacted too. */
  write: boolean;
  /** Propagate local deletions of files synced before (never the default). */
  prune: boolean;
  dryRun: boolean;
  /** What is synced (default: team/). */
  root?: SyncRoot | undefined;
  /** Upload a file with a secret as it is (a private remote of the user's own; the command checks that). */
  allowSecrets?: boolean | undefined;
}

export interface FileReport {
  file: string;
  status: FileStatus;
  reason?: string;
  /** Secret rule ids (never the secret). */
  rules?: string[];
}

export interface SyncReport {
  remote: string;
  mode: SyncMode;
  dryRun: boolean;
  /** Conflicting writes retried (someone else pushed first). */
  retries: number;
  files: FileReport[];
  summary: Record<FileStatus, number>;
}

/** One pass against the remote as fetched: a conflicting push starts another. */
interface Attempt {
  view: RemoteView;
  local: LocalTeam;
  report: Map<string, FileReport>;
  /** The remote's hashes as of the last sync. */
  base: Map<string, string>;
  /** The backend's hash of each local file, kept current as files are pulled. */
  localHash: Map<string, string>;
  /** Remote keys that must not come in (see refuseRemoteKeys). */
  refusedRemote: Set<string>;
}

/** What the pull did that the push must know. */
interface Pulled {
  /** Files pulled in this attempt: their remote version counts as seen. */
  now: Set<string>;
  /** MEMORY.md was pulled with local pointers kept: it goes back up in the same run. */
  mergedIndex: boolean;
}

/** Keys of the remote that must not come in: bad keys, non-files, and names colliding by case with each other or with a local file. */
function refuseRemoteKeys(view: RemoteView, local: LocalTeam, report: Map<string, FileReport>, root: SyncRoot): Set<string> {
  const refused = new Set<string>();
  const refuse = (file: string, reason: string) => {
    refused.add(file);
    report.set(file, { file, status: 'skipped', reason });
  };
  for (const [key, reason] of view.special) refuse(key, reason);
  for (const key of view.hashes.keys()) {
    const problem = keyProblem(key);
    if (problem) refuse(key, messages.syncBadKey('remote', problem));
    else if (excludedKey(root, key)) refuse(key, messages.syncNotWritable(messages.syncExcludedKey()));
  }
  const localByCase = new Map([...local.files.keys()].map((k) => [k.toLowerCase(), k]));
  for (const key of view.hashes.keys()) {
    const known = localByCase.get(key.toLowerCase());
    if (known !== undefined && known !== key) refuse(key, messages.syncCaseCollision());
  }
  for (const key of caseCollisions([...view.hashes.keys()].filter((k) => !refused.has(k)))) refuse(key, messages.syncCaseCollision());
  return refused;
}

async function startAttempt(memdir: string, backend: SyncBackend, base: Map<string, string>, root: SyncRoot): Promise<Attempt> {
  const view = await backend.fetch();
  crashAt('sync-fetched');
  const local = readTeam(memdir, root);
  const report = new Map<string, FileReport>();
  for (const [file, reason] of local.refused) report.set(file, { file, status: 'skipped', reason });
  const refusedRemote = refuseRemoteKeys(view, local, report, root);
  const localHash = new Map([...local.files].map(([key, text]) => [key, backend.hash(text)]));
  return { view, local, report, base, localHash, refusedRemote };
}

/** With --prune: a file synced before and deleted here since (the remote still has the synced version). */
function deletedHere(attempt: Attempt, options: SyncOptions, key: string): boolean {
  return options.prune && !attempt.local.files.has(key) && attempt.base.get(key) === attempt.view.hashes.get(key);
}

/**
 * Whether the local file changed since the last sync (no last sync counts as changed) and differs
 * from the remote: with a remote change as well, a conflict. MEMORY.md is merged instead.
 */
function changedHere(attempt: Attempt, key: string): boolean {
  const here = attempt.localHash.get(key);
  return key !== INDEX_FILE && here !== undefined && here !== attempt.view.hashes.get(key) && here !== attempt.base.get(key);
}

/** The remote wins for each file it changed since the last sync and that did not change here; local files it lacks stay. A local MEMORY.md keeps its pointers in a pulled one. */
async function pull(memdir: string, backend: SyncBackend, attempt: Attempt, options: SyncOptions, pulledEarlier: Map<string, FileReport>): Promise<Pulled> {
  const { view, local, report, base, localHash, refusedRemote } = attempt;
  const pulled: Pulled = { now: new Set(), mergedIndex: false };
  const wanted = [...view.hashes]
    .filter(([key, hash]) => !refusedRemote.has(key) && localHash.get(key) !== hash && !deletedHere(attempt, options, key))
    .filter(([key, hash]) => base.get(key) !== hash || !local.files.has(key))
    .map(([key]) => key);
  const incoming = new Map<string, string>();
  const copies = new Map<string, string>();
  const heldBack = new Set<string>();
  for (const [key, bytes] of await backend.read(view, wanted)) {
    const checked = checkPulled(key, bytes);
    if ('problem' in checked) {
      if (checked.heldBack) heldBack.add(key);
      report.set(key, { file: key, status: checked.heldBack ? 'refused' : 'skipped', reason: checked.problem });
    } else if (changedHere(attempt, key)) copies.set(key, checked.text);
    else incoming.set(key, checked.text);
  }
  // A file held back leaves no dead pointer in the index that comes in with it.
  const pulledIndex = incoming.get(INDEX_FILE);
  if (pulledIndex !== undefined && heldBack.size > 0) incoming.set(INDEX_FILE, keptLocalPointers(pulledIndex, (key) => !heldBack.has(key)).text);
  // Changed on both sides: the local file stays, the remote's version is kept beside it; its base stays, so it is a conflict again until resolved.
  const unwrittenCopies = options.dryRun ? new Map<string, string>() : await writeTeamFiles(memdir, new Map([...copies].map(([key, text]) => [conflictCopyKey(key), text])), options.root);
  for (const key of copies.keys()) {
    const reason = unwrittenCopies.get(conflictCopyKey(key));
    report.set(key, reason ? { file: key, status: 'skipped', reason } : { file: key, status: 'conflict', reason: messages.syncConflict(shownKey(options.root ?? TEAM_ROOT, conflictCopyKey(key))) });
  }
  const remoteIndex = incoming.get(INDEX_FILE);
  const localIndex = local.files.get(INDEX_FILE);
  if (remoteIndex !== undefined && localIndex !== undefined) {
    const merged = mergeTeamIndex(remoteIndex, localIndex, (key) => local.files.has(key) || incoming.has(key));
    if (merged !== remoteIndex) {
      incoming.set(INDEX_FILE, merged);
      pulled.mergedIndex = true;
    }
  }
  const unwritten = options.dryRun ? new Map<string, string>() : await writeTeamFiles(memdir, incoming, options.root);
  for (const [key, text] of incoming) {
    const reason = unwritten.get(key);
    if (reason) {
      report.set(key, { file: key, status: 'skipped', reason });
      continue;
    }
    report.set(key, { file: key, status: 'pulled' });
    pulled.now.add(key);
    pulledEarlier.set(key, { file: key, status: 'pulled' });
    local.files.set(key, text);
    localHash.set(key, backend.hash(text));
  }
  return pulled;
}

/** What goes up: files whose hash differs from the remote's and that the remote did not change since, secret-scanned; and, with --write, the local files to rewrite redacted. */
function planPush(backend: SyncBackend, attempt: Attempt, options: SyncOptions, mergedIndex: boolean, removals: Set<string>): { uploads: Map<string, string>; rewrites: Map<string, string> } {
  const { view, local, report, base, localHash, refusedRemote } = attempt;
  const uploads = new Map<string, string>();
  const rewrites = new Map<string, string>();
  // The index last: what it may point at on the remote is known once every other file is judged.
  const keys = [...local.files.keys()].sort((a, b) => Number(a === INDEX_FILE) - Number(b === INDEX_FILE));
  for (const key of keys) {
    const text = local.files.get(key)!;
    const remoteHash = view.hashes.get(key);
    const merged = mergedIndex && key === INDEX_FILE;
    if ((report.has(key) && !merged) || localHash.get(key) === remoteHash || refusedRemote.has(key)) continue;
    if (remoteHash !== undefined && base.get(key) !== remoteHash && !merged) {
      report.set(key, { file: key, status: 'skipped', reason: messages.syncRemoteChanged() });
      continue;
    }
    // A name is printed and uploaded as it is: a secret in it cannot be redacted away.
    const inName = [...new Set(findSecrets(key).map((h) => h.rule.id))];
    if (inName.length > 0) {
      report.set(key, { file: key, status: 'refused', reason: messages.syncSecretInName(inName.join(', ')), rules: inName });
      continue;
    }
    const kept = key === INDEX_FILE ? keptLocalPointers(text, (target) => uploads.has(target) || (view.hashes.has(target) && !removals.has(target))) : { text, kept: [] };
    const hits = findSecrets(kept.text);
    const rules = [...new Set(hits.map((h) => h.rule.id))];
    if (hits.length > 0 && !options.redact && !options.allowSecrets) {
      report.set(key, { file: key, status: 'refused', reason: messages.syncSecretRefused(rules.join(', ')), rules });
      continue;
    }
    const redacting = hits.length > 0 && options.redact;
    const content = redacting ? redactSecrets(kept.text) : kept.text;
    // The local file keeps every pointer: only its secrets are rewritten.
    if (redacting && options.write) rewrites.set(key, redactSecrets(text));
    if (backend.hash(content) === remoteHash) continue;
    uploads.set(key, content);
    const reasons = [
      ...(merged ? [messages.syncIndexMerged()] : []),
      ...(hits.length > 0 ? [redacting ? messages.syncSecretRedacted(rules.join(', '), options.write) : messages.syncSecretSentPrivate(rules.join(', '))] : []),
      ...kept.kept.map((target) => messages.syncPointerKeptLocal(target, whyNotOnRemote(report.get(target)))),
    ];
    report.set(key, { file: key, status: 'pushed', ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}), ...(hits.length > 0 ? { rules } : {}) });
  }
  return { uploads, rewrites };
}

/** Why a file the local index points at is not on the remote, as the report says it. */
function whyNotOnRemote(entry: FileReport | undefined): string {
  if (entry?.rules && entry.status === 'refused') return `refused: ${entry.rules.join(', ')}`;
  if (entry?.reason) return `${entry.status}: ${entry.reason}`;
  return messages.syncPointerNotOnRemote();
}

/**
 * Pull then push (or one of them) against `backend`. Pull: for each file
 * changed on the remote since the last sync the remote wins; local files the
 * remote lacks stay. Push: files whose hash differs from the remote's,
 * secret-scanned, written in one exchange; a conflict refetches, re-applies
 * and retries.
 */
export async function runSync(memdir: string, backend: SyncBackend, options: SyncOptions): Promise<SyncReport> {
  const base = readBase(memdir, backend.remote);
  /** The last sync's hashes, plus what earlier attempts of this run pulled: a retry does not take its own pulls for local edits. */
  const synced = new Map(base);
  const pulledEarlier = new Map<string, FileReport>();
  /** Files the remote did not take in an earlier attempt (HTTP: too large, over the entry limit). */
  const notTaken = new Map<string, string>();
  for (let retries = 0; ; retries++) {
    const attempt = await startAttempt(memdir, backend, synced, options.root ?? TEAM_ROOT);
    for (const [file, reason] of notTaken) attempt.report.set(file, { file, status: 'skipped', reason });
    const { view, local, report, localHash, refusedRemote } = attempt;
    const pulled = options.mode !== 'push' ? await pull(memdir, backend, attempt, options, pulledEarlier) : { now: new Set<string>(), mergedIndex: false };
    const removals = options.mode !== 'pull' ? [...view.hashes.keys()].filter((key) => !refusedRemote.has(key) && deletedHere(attempt, options, key)) : [];
    const { uploads, rewrites } =
      options.mode !== 'pull' ? planPush(backend, attempt, options, pulled.mergedIndex, new Set(removals)) : { uploads: new Map<string, string>(), rewrites: new Map<string, string>() };
    for (const key of removals) report.set(key, { file: key, status: 'removed' });
    for (const key of pulled.now) synced.set(key, view.hashes.get(key)!);

    const nextBase = new Map(synced);
    // The remote's version is taken into account once it was pulled (even merged): only later remote changes count as new.
    for (const [key, hash] of view.hashes) if (localHash.get(key) === hash || pulled.now.has(key)) nextBase.set(key, hash);
    if (!options.dryRun && (uploads.size > 0 || removals.length > 0)) {
      if (retries === 0) await pushBarrier();
      const pushed = await backend.push(view, uploads, removals);
      crashAt('sync-pushed');
      if (pushed.conflict) {
        if (retries >= backend.retries) throw remoteFailure(backend.remote, messages.syncGaveUp(retries));
        continue;
      }
      for (const [key, reason] of pushed.notTaken) {
        uploads.delete(key);
        report.set(key, { file: key, status: 'skipped', reason });
        notTaken.set(key, reason);
      }
      for (const [key, content] of uploads) nextBase.set(key, backend.hash(content));
      for (const key of removals) nextBase.delete(key);
      // The server turned down a file the index just sent points at: one more exchange sends the index without that pointer.
      const index = uploads.get(INDEX_FILE);
      if (index !== undefined && retries < backend.retries && keptLocalPointers(index, (key) => !pushed.notTaken.has(key)).kept.length > 0) {
        for (const [key, content] of uploads) synced.set(key, backend.hash(content));
        continue;
      }
    }
    if (!options.dryRun) {
      await writeTeamFiles(memdir, rewrites, options.root);
      // A conflict settled another way (the file here made equal to the remote's): its copy has served.
      if (options.mode !== 'push')
        await removeConflictCopies(
          memdir,
          conflictCopies(memdir, options.root).filter((key) => report.get(key)?.status !== 'conflict' && localHash.get(key) === view.hashes.get(key)),
          options.root,
        );
      if (!sameEntries(base, nextBase)) writeBase(memdir, backend.remote, nextBase);
    }
    for (const [key, entry] of pulledEarlier) if (!report.has(key)) report.set(key, entry);
    for (const key of new Set([...local.files.keys(), ...view.hashes.keys()])) if (!report.has(key)) report.set(key, { file: key, status: 'unchanged' });
    return summarize(backend.remote, options, retries, [...report.values()]);
  }
}

function sameEntries(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
}

function summarize(remote: string, options: SyncOptions, retries: number, files: FileReport[]): SyncReport {
  const summary = unchangedSummary(0);
  for (const file of files) summary[file.status]++;
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { remote, mode: options.mode, dryRun: options.dryRun, retries, files, summary };
}
