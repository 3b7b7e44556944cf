import crypto from 'node:crypto';
import { messages } from '../core/messages.js';
import { remoteFailure, type PushResult, type RemoteView, type SyncBackend } from './backend.js';

export interface HttpBackendOptions {
  /** Server root, e.g. https://memory.example.com */
  url: string;
  /** owner/repo the team memory is filed under. */
  repo: string;
  token: string | undefined;
}

/** DESIGN §2.6: entries over this are not uploaded; PUT bodies stay under the batch size. */
export const MAX_ENTRY_BYTES = 250 * 1024;
export const MAX_BODY_BYTES = 200 * 1024;
const CONFLICT_RETRIES = 2;
const TRANSIENT_ATTEMPTS = 4;

export function sha256Checksum(content: string): string {
  return `sha256:${crypto.createHash('sha256').update(content).digest('hex')}`;
}

interface TeamMemoryBody {
  entries?: Record<string, string>;
  entryChecksums?: Record<string, string>;
}

/** Where the server states its entry limit in a 413 answer. */
function maxEntriesOf(body: unknown): number | undefined {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const nested = record.error && typeof record.error === 'object' ? (record.error as Record<string, unknown>) : {};
  const value = record.max_entries ?? nested.max_entries ?? (nested.details as Record<string, unknown> | undefined)?.max_entries;
  return typeof value === 'number' ? value : undefined;
}

/** Entries in PUT bodies of at most MAX_BODY_BYTES (an entry larger than that goes alone). */
export function batches(entries: Map<string, string>): Array<Record<string, string>> {
  const out: Array<Record<string, string>> = [];
  let current: Record<string, string> = {};
  let size = 2;
  for (const [key, content] of entries) {
    const entrySize = Buffer.byteLength(JSON.stringify(key)) + Buffer.byteLength(JSON.stringify(content)) + 2;
    if (size + entrySize > MAX_BODY_BYTES - 32 && Object.keys(current).length > 0) {
      out.push(current);
      current = {};
      size = 2;
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
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 2)));
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

  async function get(hashesOnly: boolean): Promise<{ body: TeamMemoryBody; etag: string | undefined }> {
    const url = new URL(endpoint);
    if (hashesOnly) url.searchParams.set('view', 'hashes');
    const response = await request(url, { method: 'GET' });
    if (response.status === 404) return { body: {}, etag: undefined };
    if (!response.ok) throw remoteFailure(remote, `HTTP ${response.status} on GET`);
    try {
      return { body: (await response.json()) as TeamMemoryBody, etag: response.headers.get('etag') ?? undefined };
    } catch {
      throw remoteFailure(remote, 'the answer to GET is not JSON');
    }
  }

  return {
    remote,
    retries: CONFLICT_RETRIES,
    hash: sha256Checksum,

    async fetch(): Promise<RemoteView> {
      const { body, etag } = await get(true);
      return { hashes: new Map(Object.entries(body.entryChecksums ?? {})), version: etag, special: new Map() };
    },

    async read(_view, keys): Promise<Map<string, Buffer>> {
      const contents = new Map<string, Buffer>();
      if (keys.length === 0) return contents;
      const { body } = await get(false);
      for (const key of keys) {
        const content = body.entries?.[key];
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
      let etag = view.version;
      const bodies: Array<{ entries: Record<string, string>; soft_delete_keys?: string[] }> = batches(sendable).map((entries) => ({ entries }));
      if (removals.length > 0) bodies.push({ entries: {}, soft_delete_keys: removals });
      for (const [index, body] of bodies.entries()) {
        const response = await request(endpoint, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', ...(etag ? { 'if-match': etag } : {}) },
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
        await response.body?.cancel();
        etag = response.headers.get('etag') ?? undefined;
      }
      return { conflict: false, notTaken };
    },
  };
}
