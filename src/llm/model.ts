import { ConfigError, MemdirError } from '../core/errors.js';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { lazyRequire } from '../core/lazy.js';
import { modelTimeoutOverride } from '../store/test-hooks.js';
import { messages } from '../core/messages.js';

export const DEFAULT_MODEL = 'claude-haiku-5-5';

/** The engines of recall, extract, dream and refactor: their `--engine` choices and config values. */
export const ENGINES = ['auto', 'local', 'claude'] as const;

export type EngineName = (typeof ENGINES)[number];

/** `--engine auto` means claude when an API key is set, else local (docs/architecture.md#engines-and-the-model). */
export function chooseEngine(requested: EngineName, env: NodeJS.ProcessEnv = process.env): 'local' | 'claude' {
  if (requested === 'auto') return env.ANTHROPIC_API_KEY ? 'claude' : 'local';
  return requested;
}

/** The engine a command runs: `requested` chosen as `chooseEngine` does, and claude only with a key to call it. */
export function usableEngine(requested: EngineName, env: NodeJS.ProcessEnv = process.env): 'local' | 'claude' {
  const engine = chooseEngine(requested, env);
  if (engine === 'claude') apiKey(env);
  return engine;
}

/** The key the claude engine calls the model API with; a configuration error when there is none. */
function apiKey(env: NodeJS.ProcessEnv): string {
  const key = env.ANTHROPIC_API_KEY;
  if (!key) throw new ConfigError(messages.engineNeedsKey(), { hint: messages.engineNeedsKeyHint() });
  return key;
}

/** A model call failed: auth, network, timeout, overload, or output that does not validate. */
export class ModelError extends MemdirError {
  constructor(
    message: string,
    readonly kind: 'auth' | 'unavailable' | 'invalid',
    options: { hint?: string; cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

export interface ModelOptions {
  model?: string | undefined;
  timeoutMs?: number;
  maxRetries?: number;
  env?: NodeJS.ProcessEnv;
}

export interface StructuredRequest<T> {
  /** Stable instructions: sent with a cache-control marker so repeated calls reuse the prefix. */
  system: string;
  user: string;
  /** Name and JSON schema of the one tool the model must call: its input is the answer. */
  toolName: string;
  schema: Record<string, unknown>;
  maxTokens: number;
  /** Check the answer before anything uses it; return an error message or the typed value. */
  validate: (input: unknown) => { ok: true; value: T } | { ok: false; error: string };
}

export interface StructuredResult<T> {
  value: T;
  model: string;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
}

/**
 * One structured call through the official SDK (loaded only here, on first
 * use). The answer is forced through a tool whose input schema is the
 * output schema, then validated. The SDK retries 429/5xx/overloaded with
 * backoff; ANTHROPIC_BASE_URL is honoured.
 */
export async function callStructured<T>(request: StructuredRequest<T>, options: ModelOptions = {}): Promise<StructuredResult<T>> {
  const env = options.env ?? process.env;
  const key = apiKey(env);
  const model = options.model ?? env.MEMDIR_MODEL ?? DEFAULT_MODEL;
  const timeoutMs = modelTimeoutOverride(env) ?? options.timeoutMs ?? 30_000;
  const { default: Anthropic, APIError, APIConnectionTimeoutError } = lazyRequire<typeof import('@anthropic-ai/sdk')>('@anthropic-ai/sdk');
  const client = new Anthropic({
    apiKey: key,
    baseURL: env.ANTHROPIC_BASE_URL || undefined,
    timeout: timeoutMs,
    maxRetries: options.maxRetries ?? 2,
  });
  let message: Message;
  try {
    message = await client.messages.create({
      model,
      max_tokens: request.maxTokens,
      system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: request.user }],
      tools: [{ name: request.toolName, description: 'Return the answer.', input_schema: request.schema as never }],
      tool_choice: { type: 'tool', name: request.toolName },
    });
  } catch (error) {
    if (error instanceof APIConnectionTimeoutError) throw new ModelError(messages.modelTimedOut(timeoutMs), 'unavailable', { cause: error });
    if (error instanceof APIError) {
      const status = error.status ? `HTTP ${error.status}` : 'connection failed';
      const detail = (error.error as { error?: { message?: string } } | undefined)?.error?.message ?? error.message.split('\n')[0];
      const auth = error.status === 401 || error.status === 403;
      throw new ModelError(messages.modelCallFailed(status, detail), auth ? 'auth' : 'unavailable', { cause: error, hint: auth ? messages.modelCheckKey() : undefined });
    }
    throw new ModelError(messages.modelCallBroke((error as Error).message), 'unavailable', { cause: error });
  }
  const call = message.content.find((block) => block.type === 'tool_use' && block.name === request.toolName) as { input: unknown } | undefined;
  if (!call) throw new ModelError(messages.modelNoStructuredOutput(), 'invalid');
  const checked = request.validate(call.input);
  if (!checked.ok) throw new ModelError(messages.modelOutputInvalid(checked.error), 'invalid');
  const usage = message.usage as { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number | null; cache_creation_input_tokens?: number | null };
  return {
    value: checked.value,
    model: message.model,
    usage: {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      cacheReadTokens: usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
    },
  };
}
