import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reference server of the team memory HTTP contract (docs/architecture.md#sync-backends), for
 * tests only, answering in the shapes Claude Code 2.1.197 parses (README
 * "HTTP contract"): GET `{repo, version, lastModified, checksum, content:
 * {entries, entryChecksums}}`, `view=hashes` `{checksum, version,
 * entryChecksums}`, PUT `{entries, soft_delete_keys?}` upserts under
 * `If-Match: "<checksum>"` answered `{checksum, lastModified}`, 412 on a
 * stale checksum, 413 `{error: {details: {error_code, max_entries,
 * received_entries}}}`, bearer token. Hooks let a test inject another writer
 * or transient 5xx answers.
 */
export interface TeamMemoryServer {
  url: string;
  entries(repo: string): Map<string, string>;
  put(repo: string, key: string, content: string): void;
  /** Every request: method, URL and body size in bytes. */
  requests: Array<{ method: string; url: string; bytes: number; keys: string[]; auth: string | undefined; ifMatch: string | undefined; softDeleteKeys: string[] }>;
  /** Leave a field out of every `view=hashes` answer (an older server). */
  answerHashesWithout(field: 'entryChecksums'): void;
  /** Answer the next `count` requests with this 5xx status. */
  failNext(count: number, status?: number): void;
  /** Before the next PUT, another client writes this entry (so the PUT's If-Match is stale). */
  writeBeforeNextPut(repo: string, key: string, content: string): void;
  close(): Promise<void>;
}

const checksum = (content: string) => `sha256:${crypto.createHash('sha256').update(content).digest('hex')}`;

export async function startTeamMemoryServer(options: { token?: string; maxEntries?: number } = {}): Promise<TeamMemoryServer> {
  const repos = new Map<string, { entries: Map<string, string>; version: number; lastModified: string }>();
  const repoState = (repo: string) => repos.get(repo) ?? repos.set(repo, { entries: new Map(), version: 0, lastModified: new Date().toISOString() }).get(repo)!;
  /** The whole store's checksum: what If-Match names. */
  const storeChecksum = (repo: string) => {
    const state = repoState(repo);
    return checksum(`${state.version}\n${JSON.stringify([...state.entries].sort(([a], [b]) => (a < b ? -1 : 1)))}`);
  };
  const bump = (repo: string) => {
    const state = repoState(repo);
    state.version++;
    state.lastModified = new Date().toISOString();
  };
  const requests: TeamMemoryServer['requests'] = [];
  let failures = { count: 0, status: 503 };
  let intruder: { repo: string; key: string; content: string } | undefined;
  let hashesWithout: string | undefined;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://localhost');
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      let keys: string[] = [];
      let parsed: { entries?: Record<string, string>; soft_delete_keys?: string[] } = {};
      if (req.method === 'PUT') {
        parsed = JSON.parse(body.toString('utf8') || '{}') as typeof parsed;
        keys = Object.keys(parsed.entries ?? {});
      }
      const ifMatch = typeof req.headers['if-match'] === 'string' ? req.headers['if-match'] : undefined;
      requests.push({ method: req.method ?? '', url: url.pathname + url.search, bytes: body.length, keys, auth: req.headers.authorization, ifMatch, softDeleteKeys: parsed.soft_delete_keys ?? [] });
      if (failures.count > 0) {
        failures.count--;
        return send(failures.status, { error: { message: 'try again later' } });
      }
      if (url.pathname !== '/api/claude_code/team_memory') return send(404, { error: { message: 'no such endpoint' } });
      if (options.token && req.headers.authorization !== `Bearer ${options.token}`) return send(401, { error: { message: 'not authorized' } });
      const repo = url.searchParams.get('repo') ?? '';
      if (req.method === 'GET') {
        if (!repos.has(repo)) return send(404, { error: { message: 'no remote data' } });
        const state = repoState(repo);
        const entryChecksums = Object.fromEntries([...state.entries].map(([k, v]) => [k, checksum(v)]));
        const current = storeChecksum(repo);
        const etag = `"${current}"`;
        if (url.searchParams.get('view') === 'hashes') {
          const answer: Record<string, unknown> = { checksum: current, version: state.version, entryChecksums };
          if (hashesWithout) delete answer[hashesWithout];
          return send(200, answer, { etag });
        }
        return send(200, { repo, version: state.version, lastModified: state.lastModified, checksum: current, content: { entries: Object.fromEntries(state.entries), entryChecksums } }, { etag });
      }
      if (req.method === 'PUT') {
        if (intruder && intruder.repo === repo) {
          const { key, content } = intruder;
          intruder = undefined;
          repoState(repo).entries.set(key, content);
          bump(repo);
        }
        const state = repoState(repo);
        if (ifMatch !== undefined ? ifMatch.replace(/^"|"$/g, '') !== storeChecksum(repo) : state.version > 0) return send(412, { error: { message: 'ETag mismatch' } });
        const after = new Set([...state.entries.keys(), ...keys]);
        for (const key of parsed.soft_delete_keys ?? []) after.delete(key);
        if (options.maxEntries !== undefined && after.size > options.maxEntries) {
          return send(413, { error: { message: 'too many entries', details: { error_code: 'team_memory_too_many_entries', max_entries: options.maxEntries, received_entries: after.size } } });
        }
        for (const [key, content] of Object.entries(parsed.entries ?? {})) state.entries.set(key, content);
        for (const key of parsed.soft_delete_keys ?? []) state.entries.delete(key);
        bump(repo);
        return send(200, { checksum: storeChecksum(repo), lastModified: state.lastModified }, { etag: `"${storeChecksum(repo)}"` });
      }
      send(405, { error: { message: 'method not allowed' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    entries: (repo) => new Map(repos.get(repo)?.entries ?? []),
    put: (repo, key, content) => {
      repoState(repo).entries.set(key, content);
      bump(repo);
    },
    requests,
    answerHashesWithout: (field) => (hashesWithout = field),
    failNext: (count, status = 503) => (failures = { count, status }),
    writeBeforeNextPut: (repo, key, content) => (intruder = { repo, key, content }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
