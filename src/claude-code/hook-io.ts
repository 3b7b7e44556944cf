import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { messages } from '../core/messages.js';
import { redactOutput } from '../core/secrets.js';
import { FirstObjectScanner, HOOK_INPUT_MAX_BYTES, isWouldBlock, NOT_AN_OBJECT, stdinWithoutWaiting, SURROGATE_ESCAPE, type StdinPrefix } from './hook-stdin.js';

/**
 * Claude Code hook I/O, shaped after the JSON Claude Code 2.1.197 sends
 * (test/fixtures/shared/claude-code-2.1.197/hook-input/): typed inputs, one
 * output writer, and a runner that never lets a hook block the agent.
 */

/** Fields every hook event carries; absent or mistyped ones are undefined. */
export interface HookInput {
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  hook_event_name?: string;
}
export interface SessionStartInput extends HookInput {
  source?: string;
}
export interface UserPromptSubmitInput extends HookInput {
  prompt?: string;
}
export interface StopInput extends HookInput {
  stop_hook_active?: boolean;
  last_assistant_message?: string;
}
export interface SessionEndInput extends HookInput {
  reason?: string;
}

/**
 * Set by `memdir doctor` when it runs an installed hook as Claude Code would: the hook reads its
 * input, resolves the memory directory and validates the configuration as always, then stops before
 * anything that writes, starts a process or asks a model. doctor stays read-only.
 */
export const HOOK_PROBE_ENV = 'MEMDIR_HOOK_PROBE';

/** This hook run is doctor's probe (see HOOK_PROBE_ENV). */
export function isHookProbe(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[HOOK_PROBE_ENV] === '1';
}

/** Claude Code may keep stdin open after the JSON: never wait longer than this for it. */
const HOOK_INPUT_WAIT_MS = 1_000;

function parseHookInput(bytes: Buffer): Record<string, unknown> {
  // isUtf8 rather than a fatal TextDecoder: the decoder's first use is a start-up cost of every hook (bench `hooks`).
  if (!isUtf8(bytes)) throw new Error(messages.hookInputNotJson('not valid UTF-8'));
  const text = bytes.toString('utf8');
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    // A lone surrogate (a prompt cut mid-character) becomes U+FFFD rather than failing later. Valid
    // UTF-8 holds none, so only a \uD8xx–\uDFxx escape can make one: the reviver runs only then.
    parsed = SURROGATE_ESCAPE.test(text) ? JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' ? value.replace(/\p{Cs}/gu, '\ufffd') : value)) : JSON.parse(text);
  } catch (error) {
    throw new Error(messages.hookInputNotJson((error as Error).message));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(messages.hookInputNotObject());
  return parsed as Record<string, unknown>;
}

/**
 * The first JSON object of a byte stream, chunk by chunk: `push` gives the parsed object once it
 * is complete, `end` what the stream held; both throw with the message the hook reports.
 */
class FirstObjectReader {
  private readonly scanner = new FirstObjectScanner();
  private readonly chunks: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): Record<string, unknown> | undefined {
    this.chunks.push(chunk);
    this.size += chunk.length;
    const end = this.scanner.feed(chunk);
    if (end === NOT_AN_OBJECT) throw new Error(messages.hookInputNotObject());
    if (end !== undefined) return parseHookInput(Buffer.concat(this.chunks).subarray(0, end));
    if (this.size > HOOK_INPUT_MAX_BYTES) throw new Error(messages.hookInputTooLarge(HOOK_INPUT_MAX_BYTES));
    return undefined;
  }

  end(): Record<string, unknown> {
    return parseHookInput(Buffer.concat(this.chunks));
  }
}

/** Read `fd` synchronously into `reader` until the object is complete or the input ends; undefined when it would block. */
function readFirstObjectAtOnce(fd: number, reader: FirstObjectReader): Record<string, unknown> | undefined {
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    let length: number;
    try {
      length = fs.readSync(fd, buffer);
    } catch (error) {
      if (isWouldBlock(error)) return undefined; // nothing there yet: the timed stream takes over
      throw error;
    }
    if (length === 0) return reader.end();
    const parsed = reader.push(Buffer.from(buffer.subarray(0, length)));
    if (parsed) return parsed;
  }
}

/**
 * Claude Code hook input: the first JSON object on stdin, parsed as soon as
 * it is complete (stdin may stay open after it). Through the stream it gives
 * up after about a second; always after 8 MB; empty input (or a terminal) is {}.
 */
function readFirstObject(): Promise<Record<string, unknown>> {
  const reader = new FirstObjectReader();
  const prefix = (globalThis as Record<symbol, unknown>)[HANDED_OVER_PREFIX] as StdinPrefix | undefined;
  if (prefix) {
    try {
      const parsed = prefix.bytes.length > 0 ? reader.push(prefix.bytes) : undefined;
      if (parsed) return Promise.resolve(parsed);
      if (prefix.eof) return Promise.resolve(reader.end());
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const fd = stdinWithoutWaiting();
  if (fd !== undefined) {
    try {
      const parsed = readFirstObjectAtOnce(fd, reader);
      if (parsed) return Promise.resolve(parsed);
    } catch (error) {
      return Promise.reject(error);
    } finally {
      if (fd !== 0) fs.closeSync(fd);
    }
  }
  const stdin = process.stdin;
  if (stdin.isTTY) return Promise.resolve({});
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (read: () => Record<string, unknown> | undefined) => {
      if (settled) return;
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = read();
        if (!parsed) return;
        resolve(parsed);
      } catch (error) {
        reject(error);
      }
      settled = true;
      clearTimeout(timer);
      stdin.off('data', onData).off('end', onEnd).off('error', onError);
      // Stop reading: an open stdin would keep the process alive. A pipe's socket is paused and
      // unreferenced rather than destroyed: its destroy creates process.stderr, a start-up cost per hook.
      stdin.pause();
      if (typeof stdin.unref === 'function') stdin.unref();
      else stdin.destroy();
    };
    const onData = (chunk: Buffer) => finish(() => reader.push(chunk));
    const onEnd = () => finish(() => reader.end());
    const onError = (error: Error) =>
      finish(() => {
        throw new Error(error.message);
      });
    // Timers run before the poll phase that reads stdin: a hook stalled past the wait (a loaded
    // machine) would give up on input Claude Code had already sent. The poll gets one turn first.
    const timer = setTimeout(
      () =>
        setImmediate(() =>
          finish(() => {
            throw new Error(messages.hookInputIncomplete(HOOK_INPUT_WAIT_MS));
          }),
        ),
      HOOK_INPUT_WAIT_MS,
    );
    stdin.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** A field of the wrong type is treated as absent, so a hook never trusts a shape it did not get. */
const FIELD_TYPES: Record<string, 'string' | 'boolean'> = {
  session_id: 'string',
  transcript_path: 'string',
  cwd: 'string',
  hook_event_name: 'string',
  source: 'string',
  prompt: 'string',
  reason: 'string',
  last_assistant_message: 'string',
  stop_hook_active: 'boolean',
};

/** Where a fast path that read stdin, then handed over to the full CLI in the same process, leaves what it read. */
const HANDED_OVER = Symbol.for('memdir.hookInput');

/** Where a fast path that read the start of stdin but did not parse it leaves those bytes. */
const HANDED_OVER_PREFIX = Symbol.for('memdir.hookInputPrefix');

/** Keep the bytes of stdin a fast path read for the hook runtime it hands over to, which reads on from them. */
export function handOverHookInputPrefix(prefix: StdinPrefix): void {
  (globalThis as Record<symbol, unknown>)[HANDED_OVER_PREFIX] = prefix;
}

/** Keep the input a fast path read for the full CLI it hands over to (stdin is consumed). */
export function handOverHookInput(raw: Record<string, unknown>): void {
  (globalThis as Record<symbol, unknown>)[HANDED_OVER] = raw;
}

/** The first JSON object on stdin, parsed (or what a fast path read of it). */
export async function readRawHookInput(): Promise<Record<string, unknown>> {
  const handed = (globalThis as Record<symbol, unknown>)[HANDED_OVER] as Record<string, unknown> | undefined;
  return handed ?? readFirstObject();
}

/** The hook's input on stdin, typed for its event. */
export async function readHookInput<T extends HookInput>(): Promise<T> {
  return typedHookInput<T>(await readRawHookInput());
}

/**
 * Only the fields of the types Claude Code sends. A `cwd` that is no longer a directory (the
 * session's project was deleted) throws: the memory directory named after it would be created anew.
 */
export function typedHookInput<T extends HookInput>(raw: Record<string, unknown>): T {
  const typed: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(FIELD_TYPES)) if (typeof raw[key] === type) typed[key] = raw[key];
  if (typeof typed.cwd === 'string' && !fs.statSync(typed.cwd, { throwIfNoEntry: false })?.isDirectory()) throw new Error(messages.hookCwdGone(typed.cwd));
  return typed as T;
}

/**
 * Write a hook's answer (a JSON document, its secrets redacted) to stdout without process.stdout,
 * whose stream modules weigh on every hook's start; a non-blocking pipe that is full gets the rest
 * through the stream.
 */
export function writeStdout(text: string): void {
  const bytes = Buffer.from(redactOutput(text, 'json'));
  let written = 0;
  try {
    while (written < bytes.length) written += fs.writeSync(1, bytes, written);
  } catch (error) {
    if (!isWouldBlock(error)) throw error;
    process.stdout.write(bytes.subarray(written));
  }
}

/** A hook's warnings when its fast path runs it: one line each on stderr, none with --quiet. */
export function hookWarnings(quiet: boolean): (message: string) => void {
  return (message) => {
    if (!quiet) process.stderr.write(`${redactOutput(message)}\n`);
  };
}

/** A fast path's hook run, started: the process exits with its code once it is done. True: the command is taken. */
export function startHookRun(run: Promise<number>): true {
  void run.then((code) => {
    process.exitCode = code;
  });
  return true;
}

/** What a hook that answers with context (SessionStart, UserPromptSubmit) is run with, from its fast path or the full CLI. */
export interface ContextHookRun {
  dir?: string | undefined;
  trustProjectSettings: boolean;
  /** Only the team section (SessionStart while Claude Code loads the private index itself). */
  teamOnly?: boolean | undefined;
  /** The hook's answer (a JSON document) on stdout. */
  write: (text: string) => void;
  warn: (message: string) => void;
}

/** Answer an event that accepts context for the model (SessionStart, UserPromptSubmit); nothing to add is no output. */
export function writeHookContext(output: Pick<ContextHookRun, 'write'>, event: 'SessionStart' | 'UserPromptSubmit', additionalContext: string): void {
  if (additionalContext) output.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext } })}\n`);
}

/**
 * Run a hook body so it never blocks the agent: any failure becomes one
 * line on stderr (control characters escaped) and exit code 0 (docs/architecture.md#hook-runtime-and-fast-paths).
 */
export async function runAsHook(name: string, body: () => Promise<void>): Promise<number> {
  try {
    await body();
  } catch (error) {
    process.stderr.write(`${redactOutput(messages.hookSkipped(name, error instanceof Error ? error.message : String(error)))}\n`);
  }
  return 0;
}
