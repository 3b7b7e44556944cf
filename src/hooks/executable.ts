/**
 * Whether a hook's memdir would run, judged without running it: the command a settings file or a
 * hook script names is text anyone with commit access wrote (`touch /tmp/x; memdir extract
 * --hook`), so it is parsed as one plain program call and its program looked up on disk. Shell
 * syntax beyond quoting is not interpreted: such a command is reported as not checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { messages } from '../core/messages.js';
import { homeDir } from '../store/settings.js';

export interface ProgramCheck {
  runs: boolean;
  /** Where the program is, or why it would not run. */
  detail: string;
}

/** The words of a plain command line (quotes, `~/` at a word's start); undefined for anything the shell would interpret further. */
export function plainWords(text: string, home: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      const inner = text.slice(i + 1, end);
      if (end < 0 || (c === '"' && /[$`\\!]/.test(inner))) return undefined;
      word = (word ?? '') + inner;
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '~' && word === undefined && text[i + 1] === '/') {
      word = home;
    } else if (/[;&|<>()$`\\*?[\]{}~#!]/.test(c)) {
      return undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `program` as the shell finds it: a path (from `cwd`), else the first executable of that name on PATH. */
function findProgram(program: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  if (program.includes('/')) {
    const file = path.resolve(cwd, program);
    return executable(file) ? file : undefined;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(path.resolve(cwd, dir || '.'), program);
    if (executable(file)) return file;
  }
  return undefined;
}

/** The memdir a hook without a command of its own finds (and `npx memdir` runs without downloading): the project's node_modules/.bin, then PATH. */
export function findMemdir(project: string, env: NodeJS.ProcessEnv = process.env): ProgramCheck {
  const found = findProgram('node_modules/.bin/memdir', project, env) ?? findProgram('memdir', project, env);
  return found ? { runs: true, detail: found } : { runs: false, detail: messages.hookProgramMissing('memdir') };
}

/** Whether the memdir that `prefix` (the hook command before `<subcommand> --hook`) names would run from `project`, nothing run. */
export function checkHookCommand(prefix: string, project: string, env: NodeJS.ProcessEnv = process.env): ProgramCheck {
  const words = plainWords(prefix, homeDir(env));
  if (!words || words.length === 0) return { runs: false, detail: messages.hookCommandNotPlain() };
  const [program, ...rest] = words as [string, ...string[]];
  if (program === 'npx') {
    const memdir = rest.find((word) => !word.startsWith('-'));
    return memdir === 'memdir' || memdir?.startsWith('memdir@') ? findMemdir(project, env) : { runs: false, detail: messages.hookCommandNotPlain() };
  }
  const found = findProgram(program, project, env);
  if (!found) return { runs: false, detail: messages.hookProgramMissing(program) };
  // `node …/memdir.cjs`: the script must be there too.
  if (path.basename(found) === 'node' && rest[0] !== undefined && !rest[0].startsWith('-')) {
    const script = path.resolve(project, rest[0]);
    return fs.existsSync(script) ? { runs: true, detail: `${found} ${script}` } : { runs: false, detail: messages.hookProgramMissing(rest[0]) };
  }
  return { runs: true, detail: found };
}
