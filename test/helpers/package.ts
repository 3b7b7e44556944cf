import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, runProcess, type CliResult } from './run-cli.js';

/**
 * This repository packed into `dir` as `npm publish` would pack it; the tarball's path. The
 * scripts are skipped: `prepack` would rebuild dist/ under the other tests, and the global setup
 * built it.
 */
function packInto(dir: string): string {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  ) as Array<{ filename: string }>;
  return path.join(dir, packed!.filename);
}

/** The npm cache this repository's `npm ci` filled: the only place an offline install can take packages from. */
const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();

/** `env` for npm and npx with no network: that cache, offline, no update check. */
export function offlineNpm(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, npm_config_cache: npmCache, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
}

/**
 * A lock file naming memdir's dependencies as this repository's lock resolved them, each with
 * its registry address. The cache holds their tarballs (by integrity) but no registry metadata,
 * so `npm install --offline` can resolve them only through a lock file.
 */
function dependencyLock(project: string): object {
  const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, Record<string, unknown>> };
  const packages: Record<string, object> = { '': { name: path.basename(project), version: '1.0.0' } };
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === '' || entry.dev) continue;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const { devOptional: _, optional, ...rest } = entry;
    packages[where] = {
      ...rest,
      resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${String(entry.version)}.tgz`,
      dev: true,
      ...(optional ? { optional } : {}),
    };
  }
  return { name: path.basename(project), version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

/**
 * `npm install --save-dev memdir-X.tgz` in `project` (made a package if it is not one), fully
 * offline: what a user's devDependency install prints, and node_modules/.bin/memdir.
 */
export function installPackedAsDevDependency(project: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  const tarball = packInto(project);
  const manifest = path.join(project, 'package.json');
  if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, `${JSON.stringify({ name: path.basename(project), version: '1.0.0', private: true }, null, 2)}\n`);
  fs.writeFileSync(path.join(project, 'package-lock.json'), `${JSON.stringify(dependencyLock(project), null, 2)}\n`);
  return runProcess('npm', ['install', '--offline', '--no-audit', '--no-fund', '--save-dev', `./${path.basename(tarball)}`], {
    cwd: project,
    env: offlineNpm(env),
    timeoutMs: 120_000,
  });
}
