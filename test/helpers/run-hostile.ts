import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { memdirBin, runProcess, type CliResult } from './run-cli.js';

const KILL_AFTER_MS = 20_000;

/** Run memdir from a working directory (`dir`, created here) that is deleted before memdir starts. */
export function runMemdirInDeletedDir(args: string[], options: { dir: string; env: NodeJS.ProcessEnv; input?: string }): Promise<CliResult> {
  fs.mkdirSync(options.dir);
  // The shell enters the directory, removes it, then becomes memdir: its cwd no longer exists.
  const script = 'cd "$1" && rmdir "$1" && shift && exec "$@"';
  return runProcess('/bin/sh', ['-c', script, 'sh', options.dir, process.execPath, memdirBin, ...args], {
    cwd: path.dirname(options.dir),
    env: options.env,
    input: options.input,
  });
}

/**
 * Run memdir with `input` on a stdin that is never closed, as Claude Code may
 * leave it. Killed after 20 s: code -1 then means it waited for EOF.
 */
export function runMemdirStdinOpen(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input: string | Buffer }): Promise<CliResult> {
  return collect(args, options, (child) => child.stdin!.write(options.input));
}

/** Run memdir with its input written in two parts, `gapMs` apart, then stdin closed (a slow writer). */
export function runMemdirSlowInput(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input: string; gapMs: number }): Promise<CliResult> {
  const half = Math.floor(options.input.length / 2);
  return collect(args, options, (child) => {
    child.stdin!.write(options.input.slice(0, half));
    setTimeout(() => child.stdin!.end(options.input.slice(half)), options.gapMs);
  });
}

/** Run memdir with its stdout a pipe whose reader is already gone (`memdir … | head -0`). */
export function runMemdirReaderGone(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CliResult> {
  return collect(args, options, (child) => {
    child.stdin!.end();
    child.stdout!.destroy();
  });
}

function collect(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }, start: (child: ReturnType<typeof spawn>) => void): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [memdirBin, ...args], { cwd: options.cwd, env: options.env });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin!.on('error', () => {}); // memdir may exit before reading all of it
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin!.destroy();
      resolve({ code: code ?? -1, stdout, stderr });
    });
    start(child);
  });
}
