/**
 * Loads memdir's built CommonJS bundles with a V8 code cache, the start-up
 * Node ≥ 22.1 gives every module through `module.enableCompileCache()` and
 * Node 20 does not: hooks start memdir on every prompt, turn and commit, and
 * compiling the bundle again each time is a large share of their cost.
 *
 * The cache of a bundle is written when the first process that loaded it
 * exits, so it also holds the functions that run compiled; a run that
 * skipped most of its command (`skipsCodeCache`) leaves that to a later one,
 * and one that did work the usual run does not (`cachesProvisionally`: the
 * prompt hook that rebuilt its index) writes a provisional cache, which the
 * next usual run replaces: a cache holds the code its run ran, and the first
 * prompt after an install builds the index that every later prompt only
 * reads. It lives next to
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

/** Where a bundle marks its run as unusual: its cache is kept only until a usual run replaces it. */
const PROVISIONAL_RUN = Symbol.for('memdir.provisionalRun');

/**
 * This run did work the command's usual run does not (the prompt hook rebuilt its index): a cache made
 * now would hold code later runs skip and miss some they run, so it is written only where there is
 * none, as provisional, and the next usual run writes the lasting one.
 */
export function cachesProvisionally(): void {
  (globalThis as Record<symbol, unknown>)[PROVISIONAL_RUN] = true;
}

const isMarked = (mark: symbol) => (globalThis as Record<symbol, unknown>)[mark] === true;

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
  const cache: CacheNames = { stem: `${path.basename(file)}-`, build: `${path.basename(file)}-${stat.size}-${Math.trunc(stat.mtimeMs)}`, runtime: `-${process.version}-${process.arch}.bin` };
  // Neither: the first run of this build, cached at exit.
  const lastingData = readQuietly(path.join(folder, cacheName(cache, false)));
  const provisionalData = lastingData === undefined ? readQuietly(path.join(folder, cacheName(cache, true))) : undefined;
  const cachedData = lastingData ?? provisionalData;
  const fromProvisional = provisionalData !== undefined;
  // NODE_DEBUG=module logs this load as Node logs the ones it makes itself.
  debuglog('module')('load %j %s', file, cachedData ? `from its ${fromProvisional ? 'provisional ' : ''}code cache` : 'and cache its code');
  const internals = Module as unknown as ModuleInternals;
  const script = new vm.Script(internals.wrap(source), { filename: file, cachedData });
  const module = new Module(file, undefined);
  module.filename = file;
  module.paths = internals._nodeModulePaths(path.dirname(file));
  internals._cache[file] = module;
  const wrapper = script.runInThisContext() as CompiledWrapper;
  wrapper.call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  const usable = cachedData !== undefined && !script.cachedDataRejected;
  if (!usable || fromProvisional) {
    process.once('exit', () => {
      if (isMarked(PARTIAL_RUN)) return;
      if (!isMarked(PROVISIONAL_RUN)) storeCache(folder, cache, script, false);
      else if (!usable) storeCache(folder, cache, script, true);
    });
  }
  return module.exports;
}

/** The parts of a bundle's cache file names: `<stem><size>-<mtime>[-provisional]<runtime>`, `build` being the first two. */
interface CacheNames {
  stem: string;
  build: string;
  runtime: string;
}

const cacheName = (names: CacheNames, provisional: boolean) => `${names.build}${provisional ? '-provisional' : ''}${names.runtime}`;

function readQuietly(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Write the cache (atomically: hooks start in parallel) and drop the caches of older builds of the
 * bundle for this Node, and a lasting cache's provisional one.
 */
function storeCache(folder: string, names: CacheNames, script: vm.Script, provisional: boolean): void {
  const cacheFile = path.join(folder, cacheName(names, provisional));
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
      if (!name.startsWith(names.stem) || !name.endsWith(names.runtime) || path.join(folder, name) === cacheFile) continue;
      // A provisional cache leaves this build's lasting one, which another process may just have written.
      if (!name.startsWith(`${names.build}-`) || !provisional) fs.rmSync(path.join(folder, name), { force: true });
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
