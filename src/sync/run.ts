import { messages } from '../core/messages.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { findSecrets, redactSecrets } from '../core/secrets.js';
import { remoteFailure, type RemoteView, type SyncBackend } from './backend.js';
import { mergeTeamIndex } from './index-merge.js';
import { unchangedSummary, type FileStatus } from './summary.js';
import { caseCollisions, keyProblem } from './keys.js';
import { pushBarrier } from '../store/test-hooks.js';
import { checkPulled, readBase, readTeam, writeBase, writeTeamFiles, type LocalTeam } from './team.js';

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
function refuseRemoteKeys(view: RemoteView, local: LocalTeam, report: Map<string, FileReport>): Set<string> {
  const refused = new Set<string>();
  const refuse = (file: string, reason: string) => {
    refused.add(file);
    report.set(file, { file, status: 'skipped', reason });
  };
  for (const [key, reason] of view.special) refuse(key, reason);
  for (const key of view.hashes.keys()) {
    const problem = keyProblem(key);
    if (problem) refuse(key, messages.syncBadKey('remote', problem));
  }
  const localByCase = new Map([...local.files.keys()].map((k) => [k.toLowerCase(), k]));
  for (const key of view.hashes.keys()) {
    const known = localByCase.get(key.toLowerCase());
    if (known !== undefined && known !== key) refuse(key, messages.syncCaseCollision());
  }
  for (const key of caseCollisions([...view.hashes.keys()].filter((k) => !refused.has(k)))) refuse(key, messages.syncCaseCollision());
  return refused;
}

async function startAttempt(memdir: string, backend: SyncBackend, base: Map<string, string>): Promise<Attempt> {
  const view = await backend.fetch();
  const local = readTeam(memdir);
  const report = new Map<string, FileReport>();
  for (const [file, reason] of local.refused) report.set(file, { file, status: 'skipped', reason });
  const refusedRemote = refuseRemoteKeys(view, local, report);
  const localHash = new Map([...local.files].map(([key, text]) => [key, backend.hash(text)]));
  return { view, local, report, base, localHash, refusedRemote };
}

/** With --prune: a file synced before and deleted here since (the remote still has the synced version). */
function deletedHere(attempt: Attempt, options: SyncOptions, key: string): boolean {
  return options.prune && !attempt.local.files.has(key) && attempt.base.get(key) === attempt.view.hashes.get(key);
}

/** The remote wins for each file it changed since the last sync; local files it lacks stay. A local MEMORY.md keeps its pointers in a pulled one. */
async function pull(memdir: string, backend: SyncBackend, attempt: Attempt, options: SyncOptions, pulledEarlier: Map<string, FileReport>): Promise<Pulled> {
  const { view, local, report, base, localHash, refusedRemote } = attempt;
  const pulled: Pulled = { now: new Set(), mergedIndex: false };
  const wanted = [...view.hashes]
    .filter(([key, hash]) => !refusedRemote.has(key) && localHash.get(key) !== hash && !deletedHere(attempt, options, key))
    .filter(([key, hash]) => base.get(key) !== hash || !local.files.has(key))
    .map(([key]) => key);
  const incoming = new Map<string, string>();
  for (const [key, bytes] of await backend.read(view, wanted)) {
    const checked = checkPulled(key, bytes);
    if ('problem' in checked) report.set(key, { file: key, status: 'skipped', reason: checked.problem });
    else incoming.set(key, checked.text);
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
  const unwritten = options.dryRun ? new Map<string, string>() : await writeTeamFiles(memdir, incoming);
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
function planPush(backend: SyncBackend, attempt: Attempt, options: SyncOptions, mergedIndex: boolean): { uploads: Map<string, string>; rewrites: Map<string, string> } {
  const { view, local, report, base, localHash, refusedRemote } = attempt;
  const uploads = new Map<string, string>();
  const rewrites = new Map<string, string>();
  for (const [key, text] of local.files) {
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
    const hits = findSecrets(text);
    const rules = [...new Set(hits.map((h) => h.rule.id))];
    if (hits.length > 0 && !options.redact) {
      report.set(key, { file: key, status: 'refused', reason: messages.syncSecretRefused(rules.join(', ')), rules });
      continue;
    }
    const content = hits.length > 0 ? redactSecrets(text) : text;
    if (hits.length > 0 && options.write) rewrites.set(key, content);
    if (backend.hash(content) === remoteHash) continue;
    uploads.set(key, content);
    if (merged) report.set(key, { file: key, status: 'pushed', reason: messages.syncIndexMerged() });
    else report.set(key, { file: key, status: 'pushed', ...(hits.length > 0 ? { reason: messages.syncSecretRedacted(rules.join(', '), options.write), rules } : {}) });
  }
  return { uploads, rewrites };
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
  const pulledEarlier = new Map<string, FileReport>();
  for (let retries = 0; ; retries++) {
    const attempt = await startAttempt(memdir, backend, base);
    const { view, local, report, localHash, refusedRemote } = attempt;
    const pulled = options.mode !== 'push' ? await pull(memdir, backend, attempt, options, pulledEarlier) : { now: new Set<string>(), mergedIndex: false };
    const { uploads, rewrites } = options.mode !== 'pull' ? planPush(backend, attempt, options, pulled.mergedIndex) : { uploads: new Map<string, string>(), rewrites: new Map<string, string>() };
    const removals = options.mode !== 'pull' ? [...view.hashes.keys()].filter((key) => !refusedRemote.has(key) && deletedHere(attempt, options, key)) : [];
    for (const key of removals) report.set(key, { file: key, status: 'removed' });

    const nextBase = new Map(base);
    // The remote's version is taken into account once it was pulled (even merged): only later remote changes count as new.
    for (const [key, hash] of view.hashes) if (localHash.get(key) === hash || pulled.now.has(key)) nextBase.set(key, hash);
    if (!options.dryRun && (uploads.size > 0 || removals.length > 0)) {
      if (retries === 0) await pushBarrier();
      const pushed = await backend.push(view, uploads, removals);
      if (pushed.conflict) {
        if (retries >= backend.retries) throw remoteFailure(backend.remote, messages.syncGaveUp(retries));
        continue;
      }
      for (const [key, reason] of pushed.notTaken) {
        uploads.delete(key);
        report.set(key, { file: key, status: 'skipped', reason });
      }
      for (const [key, content] of uploads) nextBase.set(key, backend.hash(content));
      for (const key of removals) nextBase.delete(key);
    }
    if (!options.dryRun) {
      await writeTeamFiles(memdir, rewrites);
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
