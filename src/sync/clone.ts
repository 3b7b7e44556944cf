/**
 * memdir's private sync clone (`.memdir/sync/git`): a bare repository memdir made. Its directory
 * sits in the memory directory, which a repository may commit, so what is found there is checked
 * before git is pointed at it: git reads a repository's own config (a credential helper, a URL
 * rewrite, an alternate object store are all commands or redirections), so only the config
 * `git init --bare` writes is accepted; anything else is moved aside and a fresh clone made.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The `[core]` keys `git init --bare` writes (with the values it may write) on Linux, macOS and Windows. */
const INIT_KEYS: Record<string, RegExp> = {
  repositoryformatversion: /^0$/,
  filemode: /^(true|false)$/,
  bare: /^true$/,
  ignorecase: /^(true|false)$/,
  precomposeunicode: /^(true|false)$/,
  symlinks: /^(true|false)$/,
};

/** Whether a repository config holds nothing but what `git init --bare` writes. */
export function isInitConfig(text: string): boolean {
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      section = line;
      if (section !== '[core]') return false;
      continue;
    }
    const match = /^([A-Za-z]+)\s*=\s*(\S+)$/.exec(line);
    if (section !== '[core]' || !match || !INIT_KEYS[match[1]!.toLowerCase()]?.test(match[2]!)) return false;
  }
  return true;
}

/** The clone as memdir made it: a real folder, a bare layout, no pointer to another git directory or object store, the init config. */
export function isMemdirClone(repo: string): boolean {
  try {
    if (!fs.lstatSync(repo).isDirectory() || !fs.lstatSync(path.join(repo, 'HEAD')).isFile()) return false;
    for (const redirect of ['.git', 'commondir', 'gitdir', 'objects/info/alternates']) if (fs.existsSync(path.join(repo, redirect))) return false;
    const config = path.join(repo, 'config');
    return fs.lstatSync(config).isFile() && isInitConfig(fs.readFileSync(config, 'utf8'));
  } catch {
    return false;
  }
}
