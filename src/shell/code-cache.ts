/**
 * Loads memdir's built CommonJS bundles with a V8 code cache, the start-up
 * Node ≥ 22.1 gives every module through `module.enableCompileCache()` and
 * Node 20 does not: hooks start memdir on every prompt, turn and commit, and
 * compiling the bundle again each time is a large share of their cost.
 *
 * The cache of a bundle is written when the first process that loaded it
 * exits, so it also holds the functions that run compiled. It lives in the
 * user's cache folder (`$XDG_CACHE_HOME/memdir` or `~/.cache/memdir`), never
 * in a shared temp folder: code cache is code, and another user must not be
 * able to plant it. Its name carries the bundle's size and mtime and the
 * Node version, so a rebuilt bundle or another Node never meets a stale
 * cache; V8 itself rejects a cache from other flags. Any failure (no home,
 * read-only, rejected cache) only means compiling as usual.
 * `MEMDIR_CODE_CACHE=0` turns it off.
 */
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

interface ModuleInternals {
  _nodeModulePaths(from: string): string[];
  _cache: Record<string, unknown>;
  wrap(source: string): string;
}

type CompiledWrapper = (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;

function cacheFolder(): string | undefined {
  const base = process.env.XDG_CACHE_HOME || (process.env.HOME ? path.join(process.env.HOME, '.cache') : undefined);
  return base && path.isAbsolute(base) ? path.join(base, 'memdir', 'code-cache') : undefined;
}

/** A file-name-safe name for the bundle at `file`: each install of memdir keeps its own cache. */
function cacheStem(file: string): string {
  const name = file.replace(/[^A-Za-z0-9]+/g, '-');
  if (name.length <= 160) return name;
  let hash = 5381;
  for (let i = 0; i < file.length; i++) hash = (hash * 33) ^ file.charCodeAt(i);
  return `${name.slice(-120)}-${(hash >>> 0).toString(36)}`;
}

/** `require(file)` of a memdir bundle, compiled from the code cache when there is a usable one. */
export function requireBundle(file: string): unknown {
  const modern = (Module as unknown as { enableCompileCache?: () => unknown }).enableCompileCache;
  const folder = cacheFolder();
  if (modern || process.env.MEMDIR_CODE_CACHE === '0' || !folder) {
    modern?.();
    return require(file);
  }
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const stem = `${cacheStem(file)}-`;
  const cacheFile = path.join(folder, `${stem}${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.version}-${process.arch}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // first run of this build: compiled as usual, cached at exit
  }
  const internals = Module as unknown as ModuleInternals;
  const script = new vm.Script(internals.wrap(source), { filename: file, cachedData });
  const module = new Module(file, undefined);
  module.filename = file;
  module.paths = internals._nodeModulePaths(path.dirname(file));
  internals._cache[file] = module;
  const wrapper = script.runInThisContext() as CompiledWrapper;
  wrapper.call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => storeCache(folder, stem, cacheFile, script));
  return module.exports;
}

/** Write the cache (atomically: hooks start in parallel) and drop the caches of older builds of the same bundle. */
function storeCache(folder: string, stem: string, cacheFile: string, script: vm.Script): void {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const temp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temp, cacheFile);
    for (const name of fs.readdirSync(folder)) {
      if (name.startsWith(stem) && name.endsWith('.bin') && path.join(folder, name) !== cacheFile) fs.rmSync(path.join(folder, name), { force: true });
    }
  } catch {
    // a cache is an optimisation: the next run compiles as this one did
  }
}
