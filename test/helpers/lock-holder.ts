import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './run-cli.js';

/**
 * The holder takes the directory lock through the built library, like a writer:
 * it reads MEMORY.md, says "held", keeps the lock for `busyMs` of synchronous work
 * (no timer can fire, as in lint --fix or refactor), then writes back what it read
 * plus one line. With `busyMs` absent it holds the lock until killed.
 */
const HOLDER = `
const [lib, dir, busyMs] = process.argv.slice(1);
const fs = await import('node:fs');
const { withDirLock } = await import(lib);
const index = dir + '/MEMORY.md';
await withDirLock(dir, async () => {
  const before = fs.existsSync(index) ? fs.readFileSync(index, 'utf8') : '';
  process.stdout.write('held\\n');
  if (!busyMs) await new Promise(() => setInterval(() => {}, 1000));
  const until = Date.now() + Number(busyMs);
  while (Date.now() < until) {}
  fs.writeFileSync(index, before + '- [Holder](holder.md) — written by the lock holder\\n');
});
`;

export interface LockHolder {
  child: ChildProcess;
  /** Resolves with the exit code once the holder has finished (or been killed). */
  exited: Promise<number | null>;
}

/** Start a process that holds `dir`'s lock; resolves once it holds it. */
export function holdLock(dir: string, options: { busyMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<LockHolder> {
  const lib = path.join(repoRoot, 'dist/internal.js');
  const args = ['--input-type=module', '-e', HOLDER, lib, dir, ...(options.busyMs === undefined ? [] : [String(options.busyMs)])];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      if (data.toString().includes('held')) resolve({ child, exited });
    });
    exited.then((code) => reject(new Error(`lock holder exited (${code}) before taking the lock`)));
  });
}
