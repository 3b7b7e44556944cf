import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { createRepo } from './git-repo.js';
import { cleanEnv, runMemdir, type CliResult } from './run-cli.js';
import { tempDir, writeTree } from './temp.js';

export interface Clone {
  repo: string;
  /** The memory directory; team memory is `<mem>/team/`. */
  mem: string;
  team: string;
}

/** A bare remote and `names.length` clones of a project whose origin is that remote, each with its own memory directory. */
export async function teamSetup(names: string[]) {
  const root = tempDir('memdir-sync-');
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const remote = path.join(root, 'remote.git');
  await simpleGit().raw(['init', '--bare', '--quiet', remote]);
  const clones: Record<string, Clone> = {};
  for (const name of names) {
    const repo = await createRepo(path.join(root, name));
    await simpleGit(repo).addRemote('origin', remote);
    const mem = path.join(root, `${name}-memory`);
    clones[name] = { repo, mem, team: path.join(mem, 'team') };
  }
  const env = (extra: NodeJS.ProcessEnv = {}) => cleanEnv(home, extra);
  const sync = (clone: Clone, args: string[] = [], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    runMemdir(['sync', '--dir', clone.mem, ...args], { cwd: clone.repo, env: env(extra), timeoutMs: 60_000 });
  /** The remote branch's files: path → content. */
  const remoteFiles = async (branch = 'memdir/team'): Promise<Record<string, string>> => {
    const git = simpleGit(remote);
    const listed = await git.raw(['ls-tree', '-r', '-z', '--name-only', branch]).catch(() => '');
    const out: Record<string, string> = {};
    for (const file of listed.split('\0').filter(Boolean)) out[file] = await git.show([`${branch}:${file}`]);
    return out;
  };
  return { root, home, remote, clones, env, sync, remoteFiles };
}

export function topic(name: string, body: string, type = 'project'): string {
  return `---\nname: ${name}\ndescription: about ${name}\ntype: ${type}\n---\n${body}\n`;
}

export function writeTeam(clone: Clone, files: Record<string, string | Buffer>): void {
  writeTree(clone.team, files);
}

/** Put files with any path (hostile ones too) on the remote branch, as a hostile or careless peer could. */
export function pushRawTree(remote: string, files: Array<{ path: string; content: string; mode?: string }>, branch = 'memdir/team'): void {
  const quote = (p: string) => `"${p.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;
  let stream = `commit refs/heads/${branch}\ncommitter peer <peer@example.invalid> 0 +0000\ndata 4\nraw\n`;
  for (const file of files) stream += `M ${file.mode ?? '100644'} inline ${quote(file.path)}\ndata ${Buffer.byteLength(file.content)}\n${file.content}\n`;
  const result = spawnSync('git', ['fast-import', '--quiet', '--force'], { cwd: remote, input: `${stream}\n` });
  if (result.status !== 0) throw new Error(`fast-import failed: ${result.stderr.toString()}`);
}
