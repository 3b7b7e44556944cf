import { MemdirError } from '../core/errors.js';
import { messages } from '../core/messages.js';

/** What the remote holds: each path key's content hash (in the backend's own hash), and a version to write against. */
export interface RemoteView {
  hashes: Map<string, string>;
  /** Git: the branch's commit (undefined when the branch does not exist yet). HTTP: the ETag. */
  version: string | undefined;
  /** Keys the remote holds that are not plain files (a symlink, a submodule) or are too large to be a memory: never pulled, with the reason. */
  special: Map<string, string>;
}

export interface PushResult {
  /** Someone else wrote first (git: non-fast-forward; HTTP: 412): refetch, re-apply, retry. */
  conflict: boolean;
  /** Keys the remote did not take, with the reason (entry too large, over the server's entry limit). */
  notTaken: Map<string, string>;
}

/** A place team memory lives: git branch or HTTP endpoint. */
export interface SyncBackend {
  /** How the remote is named in reports and errors (never a token). */
  readonly remote: string;
  /** How many times a conflicting write is retried. */
  readonly retries: number;
  /** The content hash this backend compares by. */
  hash(content: string): string;
  fetch(): Promise<RemoteView>;
  /** Contents of `keys` as the remote holds them (bytes: they are validated before use). */
  read(view: RemoteView, keys: string[]): Promise<Map<string, Buffer>>;
  push(view: RemoteView, uploads: Map<string, string>, removals: string[]): Promise<PushResult>;
}

/** The remote could not be reached or refused the exchange: exit 2, one line naming the remote. */
export function remoteFailure(remote: string, reason: string, cause?: unknown): MemdirError {
  // Credentials in a URL inside git's message are never printed.
  return new MemdirError(messages.syncRemoteFailed(remote, reason.replace(/(:\/\/)[^/@\s]*@/g, '$1')), { cause });
}
