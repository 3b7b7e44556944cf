/** All of stdin as text; empty when stdin is a terminal (nothing piped). */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Claude Code hook input: JSON on stdin with at least `cwd`. */
export async function readHookInput(): Promise<Record<string, unknown>> {
  const text = await readStdin();
  if (!text.trim()) return {};
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('hook input on stdin is not a JSON object');
  return parsed as Record<string, unknown>;
}

/**
 * Run a hook body so it never blocks the agent: any failure becomes one
 * line on stderr and exit code 0 (DESIGN §2.7).
 */
export async function runAsHook(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    process.stderr.write(`memdir ${name} hook skipped: ${(error as Error).message}\n`);
    process.exitCode = 0;
  }
}
