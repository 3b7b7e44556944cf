import crypto from 'node:crypto';
import { MemdirError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { networkTimeoutMs } from './network.js';
import { remoteFailure, type PushResult, type RemoteView, type SyncBackend } from './backend.js';
import { sleep } from '../store/sleep.js';
import { syncBackoffMs } from '../store/test-hooks.js';

export interface HttpBackendOptions {
  /** Server root, e.g. https://memory.example.com */
  url: string;
  /** owner/repo the team memory is filed under. */
  repo: string;
  token: string | undefined;
}

/*
 * The shapes are Claude Code's own (2.1.197, read from the JavaScript inside its binary; see
 * docs/commands/sync.md, "HTTP contract"): GET answers `{repo, version?, lastModified, checksum, content: {entries,
 * entryChecksums?}}`, `view=hashes` answers `{checksum?, version?, entryChecksums}`, a PUT sends
 * `{entries, soft_delete_keys?}` with `If-Match: "<checksum>"` and is answered `{checksum?,
 * lastModified?}`, a 412 means someone wrote first, a 413 says
 * `{error: {details: {error_code: "team_memory_too_many_entries", max_entries, received_entries}}}`.
 */

/** Entries over this many bytes are not uploaded; PUT bodies stay within MAX_BODY_BYTES (Claude Code's limits). */
export const MAX_ENTRY_BYTES = 250_000;
export const MAX_BODY_BYTES = 200_000;
/** The most of an answer read: the whole team memory of a repository, far over what a server's entry limit lets it hold. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
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

/** An answer, read whole (within MAX_ANSWER_BYTES). */
interface Answer {
  status: number;
  etag: string | null;
  text: string;
}
const isOk = (answer: Answer) => answer.status >= 200 && answer.status < 300;
/** The answer's JSON; undefined when it is not JSON. */
function jsonOf(answer: Answer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
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

/** Where and how the backend talks to the server. */
interface Connection {
  endpoint: URL;
  /** The remote as reports name it. */
  remote: string;
  token: string | undefined;
  backoffMs: number;
  timeoutMs: number;
}

/**
 * One request, answer read whole; 5xx answers and network errors are retried with backoff,
 * anything else is returned. All attempts share one network timeout: a server that does not
 * answer in time is not asked again.
 */
async function request(connection: Connection, url: URL, init: RequestInit): Promise<Answer> {
  const { remote, token, backoffMs, timeoutMs } = connection;
  const headers = { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) };
  const deadline = Date.now() + timeoutMs;
  let failure = '';
  for (let attempt = 1; attempt <= TRANSIENT_ATTEMPTS; attempt++) {
    if (attempt > 1) await sleep(Math.min(backoffMs * 2 ** (attempt - 2), Math.max(0, deadline - Date.now())));
    try {
      const response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
      if (response.status < 500) return { status: response.status, etag: response.headers.get('etag'), text: await boundedText(remote, response) };
      failure = `HTTP ${response.status} ${response.statusText}`.trim();
      await response.body?.cancel();
    } catch (error) {
      if ((error as Error).name === 'TimeoutError' || Date.now() >= deadline) throw remoteFailure(remote, messages.syncNoAnswer(timeoutMs));
      if (error instanceof MemdirError) throw error;
      const cause = (error as { cause?: { code?: string } }).cause;
      failure = cause?.code ?? (error as Error).message;
    }
  }
  throw remoteFailure(remote, messages.syncGaveUpRequest(failure, TRANSIENT_ATTEMPTS));
}

/** The answer's body as text, never more than MAX_ANSWER_BYTES of it. */
async function boundedText(remote: string, response: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) break; // leaving the loop cancels the rest of the body
    chunks.push(chunk);
  }
  if (size > MAX_ANSWER_BYTES) throw remoteFailure(remote, messages.syncAnswerTooLarge(MAX_ANSWER_BYTES));
  return Buffer.concat(chunks).toString('utf8');
}

/** The answer to GET (`view=hashes` or whole); `found` false on a 404: nothing stored for the repo yet. */
async function get(connection: Connection, hashesOnly: boolean): Promise<{ found: boolean; body: TeamMemoryAnswer; version: string | undefined }> {
  const url = new URL(connection.endpoint);
  if (hashesOnly) url.searchParams.set('view', 'hashes');
  const answer = await request(connection, url, { method: 'GET' });
  if (answer.status === 404) return { found: false, body: {}, version: undefined };
  if (!isOk(answer)) throw remoteFailure(connection.remote, messages.syncHttpStatus(answer.status, 'GET'));
  const body = jsonOf(answer);
  if (body === undefined) throw remoteFailure(connection.remote, messages.syncAnswerNotJson('GET'));
  if (!isRecord(body)) throw remoteFailure(connection.remote, messages.syncAnswerNotObject('GET'));
  return { found: true, body, version: versionOf(body, answer.etag) };
}

/** The uploads a PUT may carry: entries within MAX_ENTRY_BYTES and, once the server stated its entry limit, new keys within it; the rest, each with why. */
function sendableUploads(view: RemoteView, uploads: Map<string, string>, maxEntries: number | undefined): { sendable: Map<string, string>; notTaken: Map<string, string> } {
  const notTaken = new Map<string, string>();
  const sendable = new Map<string, string>();
  for (const [key, content] of uploads) {
    if (Buffer.byteLength(content) > MAX_ENTRY_BYTES) notTaken.set(key, messages.syncEntryTooLarge(Buffer.byteLength(content), MAX_ENTRY_BYTES));
    else sendable.set(key, content);
  }
  if (maxEntries !== undefined) {
    const room = Math.max(0, maxEntries - view.hashes.size);
    for (const key of [...sendable.keys()].filter((k) => !view.hashes.has(k)).slice(room)) {
      sendable.delete(key);
      notTaken.set(key, messages.syncOverEntryLimit(maxEntries));
    }
  }
  return { sendable, notTaken };
}

/** The PUT bodies; deletions ride in the first, as Claude Code sends them. */
function putBodies(sendable: Map<string, string>, removals: string[]): Array<{ entries: Record<string, string>; soft_delete_keys?: string[] }> {
  const bodies: Array<{ entries: Record<string, string>; soft_delete_keys?: string[] }> = batches(sendable).map((entries) => ({ entries }));
  if (removals.length > 0) {
    if (bodies.length === 0) bodies.push({ entries: {} });
    bodies[0]!.soft_delete_keys = removals;
  }
  return bodies;
}

export function httpBackend(options: HttpBackendOptions): SyncBackend {
  const endpoint = new URL('/api/claude_code/team_memory', options.url);
  endpoint.searchParams.set('repo', options.repo);
  const remote = `${endpoint.origin} (repo ${options.repo})`;
  const connection: Connection = { endpoint, remote, token: options.token, backoffMs: syncBackoffMs(500), timeoutMs: networkTimeoutMs() };
  let learnedMaxEntries: number | undefined;

  return {
    remote,
    retries: CONFLICT_RETRIES,
    hash: sha256Checksum,

    async fetch(): Promise<RemoteView> {
      const { found, body, version } = await get(connection, true);
      if (!found) return { hashes: new Map(), version, special: new Map() };
      if (!isRecord(body.entryChecksums)) throw remoteFailure(remote, messages.syncNoEntryChecksums());
      const hashes = new Map(Object.entries(body.entryChecksums).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      return { hashes, version, special: new Map() };
    },

    async read(_view, keys): Promise<Map<string, Buffer>> {
      const contents = new Map<string, Buffer>();
      if (keys.length === 0) return contents;
      const { body } = await get(connection, false);
      const entries = isRecord(body.content?.entries) ? body.content.entries : {};
      for (const key of keys) {
        const content = entries[key];
        if (typeof content === 'string') contents.set(key, Buffer.from(content));
      }
      return contents;
    },

    async push(view, uploads, removals): Promise<PushResult> {
      const { sendable, notTaken } = sendableUploads(view, uploads, learnedMaxEntries);
      const bodies = putBodies(sendable, removals);
      let version = view.version;
      for (const [index, body] of bodies.entries()) {
        const answer = await request(connection, endpoint, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', ...(version ? { 'if-match': `"${version.replaceAll('"', '')}"` } : {}) },
          body: JSON.stringify(body),
        });
        if (answer.status === 412) return { conflict: true, notTaken };
        if (answer.status === 413) {
          learnedMaxEntries = maxEntriesOf(jsonOf(answer));
          // Stop cleanly: what was not sent is reported, nothing half-sent is retried blindly.
          for (const rest of bodies.slice(index))
            for (const key of Object.keys(rest.entries)) notTaken.set(key, learnedMaxEntries === undefined ? messages.syncServerRefusedSize() : messages.syncOverEntryLimit(learnedMaxEntries));
          return { conflict: false, notTaken };
        }
        if (!isOk(answer)) throw remoteFailure(remote, messages.syncHttpStatus(answer.status, 'PUT'));
        version = versionOf(jsonOf(answer), answer.etag);
      }
      return { conflict: false, notTaken };
    },
  };
}
