/**
 * Loads memdir's built CommonJS bundles with a V8 code cache, the start-up
 * Node ≥ 22.1 gives every module through `module.enableCompileCache()` and
 * Node 20 does not: hooks start memdir on every prompt, turn and commit, and
 * compiling the bundle again each time is a large share of their cost.
 *
 * The cache of a bundle is written when the first process that loaded it
 * exits, so it also holds the functions that run compiled; a run that
 * skipped most of its command (`skipsCodeCache`) leaves that to a later one. It lives next to
 * the bundle (`.cache/`, as Python keeps `__pycache__` next to its source),
 * never in a shared temp folder: code cache is code, so it must be no easier
 * to plant than the bundle itself; and nothing is written to the user's
 * home. Its name carries the bundle's size and mtime and the Node version,
 * so a rebuilt bundle or another Node never meets a stale cache; V8 itself
 * rejects a cache from other flags. Any failure (an install the user cannot
 * write to, a rejected cache) only means compiling as usual.
 * `MEMDIR_CODE_CACHE=0` turns it off.
 */
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { debuglog } from 'node:util';
import vm from 'node:vm';

interface ModuleInternals {
  _nodeModulePaths(from: string): string[];
  _cache: Record<string, unknown>;
  wrap(source: string): string;
}

type CompiledWrapper = (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;

/** Where a bundle marks its run as unfit to decide the cache: `Symbol.for`, as each bundle holds its own copy of this module. */
const PARTIAL_RUN = Symbol.for('memdir.partialRun');

/**
 * Leave this run's code out of the bundle's cache: it returned early (a prompt hook with nothing
 * to recall), and a cache made now would hold too little of what the command runs next time.
 */
export function skipsCodeCache(): void {
  (globalThis as Record<symbol, unknown>)[PARTIAL_RUN] = true;
}

/** `require(file)` of a memdir bundle, compiled from the code cache when there is a usable one. */
export function requireBundle(file: string): unknown {
  const modern = (Module as unknown as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (modern || process.env.MEMDIR_CODE_CACHE === '0') {
    modern?.();
    return require(file);
  }
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const folder = path.join(path.dirname(file), '.cache');
  const stem = `${path.basename(file)}-`;
  const runtime = `-${process.version}-${process.arch}.bin`;
  const cacheFile = path.join(folder, `${stem}${stat.size}-${Math.trunc(stat.mtimeMs)}${runtime}`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // first run of this build: compiled as usual, cached at exit
  }
  // NODE_DEBUG=module logs this load as Node logs the ones it makes itself.
  debuglog('module')('load %j %s', file, cachedData ? 'from its code cache' : 'and cache its code');
  const internals = Module as unknown as ModuleInternals;
  const script = new vm.Script(internals.wrap(source), { filename: file, cachedData });
  const module = new Module(file, undefined);
  module.filename = file;
  module.paths = internals._nodeModulePaths(path.dirname(file));
  internals._cache[file] = module;
  const wrapper = script.runInThisContext() as CompiledWrapper;
  wrapper.call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => storeCache(folder, stem, runtime, cacheFile, script));
  return module.exports;
}

/** Write the cache (atomically: hooks start in parallel) and drop the caches of older builds of the bundle for this Node. */
function storeCache(folder: string, stem: string, runtime: string, cacheFile: string, script: vm.Script): void {
  if ((globalThis as Record<symbol, unknown>)[PARTIAL_RUN]) return;
  const temp = `${cacheFile}.${process.pid}.tmp`;
  let opened = false;
  try {
    fs.mkdirSync(folder, { recursive: true });
    // Opened before the cache is made: an install the user cannot write to costs no serialisation.
    const fd = fs.openSync(temp, 'wx');
    opened = true;
    try {
      fs.writeFileSync(fd, script.createCachedData());
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, cacheFile);
    for (const name of fs.readdirSync(folder)) {
      if (name.startsWith(stem) && name.endsWith(runtime) && path.join(folder, name) !== cacheFile) fs.rmSync(path.join(folder, name), { force: true });
    }
  } catch {
    // a cache is an optimisation: the next run compiles as this one did
    if (opened) removeQuietly(temp);
  }
}

/** Nothing may throw from an exit handler: a stack trace there would be memdir's last word. */
function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // left behind: a stray temp file in the cache folder, never read
  }
}
