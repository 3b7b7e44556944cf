import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { memdirBin, repoRoot, runProcess, type CliResult } from './run-cli.js';

/** The real Claude Code releases package.json pins: 2.1.197, and the latest as an npm alias. */
export const claudeReleases = ['2.1.197', 'latest'] as const;
const releaseBins: Record<(typeof claudeReleases)[number], string> = {
  '2.1.197': path.join(repoRoot, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe'),
  latest: path.join(repoRoot, 'node_modules/claude-code-latest/bin/claude.exe'),
};
/** The release tests run unless they ask for another. */
export const claudeBin = releaseBins['2.1.197'];

let binDir: string | undefined;

/** A folder holding a `memdir` command (the built bin), for hooks that call `memdir …`. */
export function memdirOnPath(): string {
  if (binDir) return binDir;
  binDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memdir-bin-'));
  fs.symlinkSync(memdirBin, path.join(binDir, 'memdir'));
  return binDir;
}

/**
 * Run `claude -p PROMPT` offline: HOME in a temp dir, the API at the fake
 * server, non-essential traffic off; `memdir` is on PATH for hooks.
 */
export function runClaude(options: {
  cwd: string;
  home: string;
  baseUrl: string;
  prompt: string;
  release?: (typeof claudeReleases)[number];
  env?: NodeJS.ProcessEnv;
  args?: string[];
  timeoutMs?: number;
}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {
    PATH: `${memdirOnPath()}:${process.env.PATH}`,
    HOME: options.home,
    LANG: 'C.UTF-8',
    ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-tests',
    ANTHROPIC_BASE_URL: options.baseUrl,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...options.env,
  };
  return runProcess(releaseBins[options.release ?? '2.1.197'], ['-p', options.prompt, ...(options.args ?? [])], { cwd: options.cwd, env, timeoutMs: options.timeoutMs ?? 90_000 });
}

/** Command lines of the live processes (Linux /proc), each as its arguments. */
function processArguments(): string[][] {
  const all: string[][] = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      all.push(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
    } catch {
      // ended while we looked
    }
  }
  return all;
}

/**
 * Wait for the extractions a Stop hook left running detached on a memory directory (`memdir
 * extract … --dir DIR`) to end. Claude Code waits for the hook, and the hook starts its run
 * before it answers, so once `claude -p` has returned the run is either live or done: after
 * this, what it wrote is final (no temp files of a write in flight) and the test's cleanup does
 * not race its last writes.
 */
export async function waitForDetachedExtracts(dir: string, timeoutMs = 60_000, command = 'extract'): Promise<void> {
  const running = () => processArguments().some((args) => args.includes(command) && args[args.indexOf('--dir') + 1] === dir);
  for (const deadline = Date.now() + timeoutMs; running(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() > deadline) throw new Error(`a detached memdir ${command} on ${dir} still runs after ${timeoutMs} ms`);
  }
}
