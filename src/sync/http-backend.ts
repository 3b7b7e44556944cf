import crypto from 'node:crypto';
import { messages } from '../core/messages.js';
import { remoteFailure, type PushResult, type RemoteView, type SyncBackend } from './backend.js';
import { sleep } from '../store/sleep.js';

export interface HttpBackendOptions {
  /** Server root, e.g. https://memory.example.com */
  url: string;
  /** owner/repo the team memory is filed under. */
  repo: string;
  token: string | undefined;
}

/*
 * The shapes are Claude Code's own (2.1.197, read from the JavaScript inside its binary; see
 * README "HTTP contract"): GET answers `{repo, version?, lastModified, checksum, content: {entries,
 * entryChecksums?}}`, `view=hashes` answers `{checksum?, version?, entryChecksums}`, a PUT sends
 * `{entries, soft_delete_keys?}` with `If-Match: "<checksum>"` and is answered `{checksum?,
 * lastModified?}`, a 412 means someone wrote first, a 413 says
 * `{error: {details: {error_code: "team_memory_too_many_entries", max_entries, received_entries}}}`.
 */

/** Entries over this many bytes are not uploaded; PUT bodies stay within MAX_BODY_BYTES (Claude Code's limits). */
export const MAX_ENTRY_BYTES = 250_000;
export const MAX_BODY_BYTES = 200_000;
const CONFLICT_RETRIES = 2;
const TRANSIENT_ATTEMPTS = 4;
const EMPTY_BODY = '{"entries":{}}';

export function sha256Checksum(content: string): string {
  return `sha256:${crypto.createHash('sha256').update(content).digest('hex')}`;
}

interface TeamMemoryAnswer {
  checksum?: unknown;
  entryChecksums?: unknown;
  content?: { entries?: unknown };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The version to write against: the body's checksum, else the ETag, without its quotes (as Claude Code takes it). */
const versionOf = (body: unknown, etag: string | null) => (isRecord(body) && typeof body.checksum === 'string' && body.checksum) || etag?.replace(/^"|"$/g, '') || undefined;

/** The entry limit a 413 states (error.details.max_entries, a positive whole number). */
function maxEntriesOf(body: unknown): number | undefined {
  const details = isRecord(body) && isRecord(body.error) && isRecord(body.error.details) ? body.error.details : {};
  const value = details.max_entries;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** Entries in PUT bodies of at most MAX_BODY_BYTES, keys in order, sized as Claude Code sizes them (an entry larger than that goes alone). */
export function batches(entries: Map<string, string>): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  let current: Record<string, string> = {};
  let size = Buffer.byteLength(EMPTY_BODY);
  for (const key of [...entries.keys()].sort()) {
    const content = entries.get(key)!;
    const entrySize = Buffer.byteLength(JSON.stringify(key)) + Buffer.byteLength(JSON.stringify(content)) + 2;
    if (size + entrySize > MAX_BODY_BYTES && Object.keys(current).length > 0) {
      out.push(current);
      current = {};
      size = Buffer.byteLength(EMPTY_BODY);
    }
    current[key] = content;
    size += entrySize;
  }
  if (Object.keys(current).length > 0) out.push(current);
  return out;
}

export function httpBackend(options: HttpBackendOptions): SyncBackend {
  const endpoint = new URL('/api/claude_code/team_memory', options.url);
  endpoint.searchParams.set('repo', options.repo);
  const remote = `${endpoint.origin} (repo ${options.repo})`;
  const backoffMs = Number(process.env.MEMDIR_SYNC_BACKOFF_MS ?? 500);
  const timeoutMs = Number(process.env.MEMDIR_SYNC_TIMEOUT_MS ?? 30_000);
  let learnedMaxEntries: number | undefined;

  /** One request; 5xx answers and network errors are retried with backoff, anything else is returned. */
  async function request(url: URL, init: RequestInit): Promise<Response> {
    const headers = { accept: 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(init.headers as Record<string, string>) };
    let failure = '';
    for (let attempt = 1; attempt <= TRANSIENT_ATTEMPTS; attempt++) {
      if (attempt > 1) await sleep(backoffMs * 2 ** (attempt - 2));
      try {
        const response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
        if (response.status < 500) return response;
        failure = `HTTP ${response.status} ${response.statusText}`.trim();
        await response.body?.cancel();
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        failure = cause?.code ?? (error as Error).message;
      }
    }
    throw remoteFailure(remote, `${failure} (after ${TRANSIENT_ATTEMPTS} attempts)`);
  }

  /** The answer to GET (`view=hashes` or whole); `found` false on a 404: nothing stored for the repo yet. */
  async function get(hashesOnly: boolean): Promise<{ found: boolean; body: TeamMemoryAnswer; version: string | undefined }> {
    const url = new URL(endpoint);
    if (hashesOnly) url.searchParams.set('view', 'hashes');
    const response = await request(url, { method: 'GET' });
    if (response.status === 404) return { found: false, body: {}, version: undefined };
    if (!response.ok) throw remoteFailure(remote, `HTTP ${response.status} on GET`);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw remoteFailure(remote, 'the answer to GET is not JSON');
    }
    if (!isRecord(body)) throw remoteFailure(remote, 'the answer to GET is not a JSON object');
    return { found: true, body, version: versionOf(body, response.headers.get('etag')) };
  }

  return {
    remote,
    retries: CONFLICT_RETRIES,
    hash: sha256Checksum,

    async fetch(): Promise<RemoteView> {
      const { found, body, version } = await get(true);
      if (!found) return { hashes: new Map(), version, special: new Map() };
      if (!isRecord(body.entryChecksums)) throw remoteFailure(remote, messages.syncNoEntryChecksums());
      const hashes = new Map(Object.entries(body.entryChecksums).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      return { hashes, version, special: new Map() };
    },

    async read(_view, keys): Promise<Map<string, Buffer>> {
      const contents = new Map<string, Buffer>();
      if (keys.length === 0) return contents;
      const { body } = await get(false);
      const entries = isRecord(body.content?.entries) ? body.content.entries : {};
      for (const key of keys) {
        const content = entries[key];
        if (typeof content === 'string') contents.set(key, Buffer.from(content));
      }
      return contents;
    },

    async push(view, uploads, removals): Promise<PushResult> {
      const notTaken = new Map<string, string>();
      const sendable = new Map<string, string>();
      for (const [key, content] of uploads) {
        if (Buffer.byteLength(content) > MAX_ENTRY_BYTES) notTaken.set(key, messages.syncEntryTooLarge(Buffer.byteLength(content), MAX_ENTRY_BYTES));
        else sendable.set(key, content);
      }
      if (learnedMaxEntries !== undefined) {
        const room = Math.max(0, learnedMaxEntries - view.hashes.size);
        for (const key of [...sendable.keys()].filter((k) => !view.hashes.has(k)).slice(room)) {
          sendable.delete(key);
          notTaken.set(key, messages.syncOverEntryLimit(learnedMaxEntries));
        }
      }
      let version = view.version;
      // Deletions ride in the first body, as Claude Code sends them.
      const bodies: Array<{ entries: Record<string, string>; soft_delete_keys?: string[] }> = batches(sendable).map((entries) => ({ entries }));
      if (removals.length > 0) {
        if (bodies.length === 0) bodies.push({ entries: {} });
        bodies[0]!.soft_delete_keys = removals;
      }
      for (const [index, body] of bodies.entries()) {
        const response = await request(endpoint, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', ...(version ? { 'if-match': `"${version.replaceAll('"', '')}"` } : {}) },
          body: JSON.stringify(body),
        });
        if (response.status === 412) {
          await response.body?.cancel();
          return { conflict: true, notTaken };
        }
        if (response.status === 413) {
          learnedMaxEntries = maxEntriesOf(await response.json().catch(() => undefined));
          // Stop cleanly: what was not sent is reported, nothing half-sent is retried blindly.
          for (const rest of bodies.slice(index))
            for (const key of Object.keys(rest.entries)) notTaken.set(key, learnedMaxEntries === undefined ? messages.syncServerRefusedSize() : messages.syncOverEntryLimit(learnedMaxEntries));
          return { conflict: false, notTaken };
        }
        if (!response.ok) throw remoteFailure(remote, `HTTP ${response.status} on PUT`);
        version = versionOf(await response.json().catch(() => undefined), response.headers.get('etag'));
      }
      return { conflict: false, notTaken };
    },
  };
}
