import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake Messages API received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** The raw body text, for "does the agent's request contain X" assertions. */
  text: string;
}

/** What the server answers: text or tool use content, or an HTTP error. */
export type ScriptedReply =
  | { text: string; stopReason?: string }
  | { content: Array<Record<string, unknown>>; stopReason?: string }
  | { status: number; error: { type: string; message: string } }
  | { delayMs: number; reply: ScriptedReply };

export interface FakeModelServer {
  url: string;
  requests: RecordedRequest[];
  /** Requests to /v1/messages, in order. */
  messages(): RecordedRequest[];
  /** Queue replies; when the queue is empty the default reply is used. */
  enqueue(...replies: ScriptedReply[]): void;
  setDefault(reply: ScriptedReply | ((request: RecordedRequest) => ScriptedReply)): void;
  close(): Promise<void>;
}

let nextId = 1;

function contentOf(reply: { text: string } | { content: Array<Record<string, unknown>> }): Array<Record<string, unknown>> {
  return 'text' in reply ? [{ type: 'text', text: reply.text }] : reply.content;
}

function message(model: string, content: Array<Record<string, unknown>>, stopReason: string) {
  return {
    id: `msg_fake_${nextId++}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

/** Server-Sent Events for one message, as the streaming Messages API sends them. */
function sse(model: string, content: Array<Record<string, unknown>>, stopReason: string): string {
  const events: Array<[string, unknown]> = [];
  const full = message(model, [], stopReason);
  events.push(['message_start', { type: 'message_start', message: { ...full, stop_reason: null, usage: { ...full.usage, output_tokens: 1 } } }]);
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } }]);
    } else if (block.type === 'tool_use') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } }]);
      events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

/**
 * A local stand-in for the Anthropic Messages API on 127.0.0.1: records every
 * request and answers with scripted replies, as JSON or as an SSE stream
 * depending on the request's `stream` flag. Real Claude Code and the real SDK
 * talk to it through ANTHROPIC_BASE_URL.
 */
export async function startFakeModelServer(): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  let fallback: ScriptedReply | ((request: RecordedRequest) => ScriptedReply) = { text: 'OK' };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, text };
      requests.push(recorded);
      if (!req.url?.startsWith('/v1/messages') || req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (req.url.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      const next = queue.shift() ?? (typeof fallback === 'function' ? fallback(recorded) : fallback);
      void answer(res, next, body);
    });
  });

  async function answer(res: http.ServerResponse, reply: ScriptedReply, body: any): Promise<void> {
    if ('delayMs' in reply) {
      await new Promise((r) => setTimeout(r, reply.delayMs));
      if (res.destroyed) return;
      return answer(res, reply.reply, body);
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: reply.error }));
      return;
    }
    const model = body?.model ?? 'claude-fake';
    const content = contentOf(reply);
    const stopReason = reply.stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    if (body?.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(sse(model, content, stopReason));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message(model, content, stopReason)));
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messages: () => requests.filter((r) => r.method === 'POST' && r.url.startsWith('/v1/messages') && !r.url.includes('count_tokens')),
    enqueue: (...replies) => queue.push(...replies),
    setDefault: (reply) => {
      fallback = reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
