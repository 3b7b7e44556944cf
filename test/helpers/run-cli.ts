import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const memdirBin = path.join(repoRoot, 'bin/memdir.cjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment with nothing from the developer's machine that steers memdir. */
export function cleanEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', LANG: 'C.UTF-8' };
  return { ...env, ...extra };
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
}

/** Run the built `memdir` binary. */
export function runMemdir(args: string[], options: RunOptions): Promise<CliResult> {
  return runProcess(process.execPath, [memdirBin, ...args], options);
}

/** Run a program to completion, collecting its output; killed after the timeout. */
export function runProcess(command: string, args: string[], options: RunOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    // Decoded as a stream: a character split between two chunks stays whole (CJK output is long).
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    // A program that exits without reading its input (git, a shell) must not fail the test with EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
