/**
 * Whether a hook's memdir would run, judged without running it: the command a settings file or a
 * hook script names is text anyone with commit access wrote (`touch /tmp/x; memdir extract
 * --hook`), so it is parsed as one plain program call and its program looked up on disk, in the
 * environment the hook gets (`hookEnv`): the `sh -c` of Claude Code or git, on the user's PATH.
 * Shell syntax beyond quoting and the variables Claude Code sets is not interpreted: such a
 * command is reported as not checked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { messages } from '../core/messages.js';
import { homeDir } from '../store/settings.js';

export interface ProgramCheck {
  /** Whether it would run; undefined when the command is not one memdir can check without running it. */
  runs: boolean | undefined;
  /** Where the program is, or why it would not run. */
  detail: string;
  /** The file that runs, when found: the program, or the script `node` is given. */
  program?: string | undefined;
}

/** The variables a hook command may name: Claude Code sets CLAUDE_PROJECT_DIR for every hook. */
const KNOWN_VARIABLES = ['CLAUDE_PROJECT_DIR', 'HOME'] as const;

/**
 * The environment a hook command runs in: the user's, as Claude Code (or git) passes it on. Under
 * `npx`/`npm exec`/`npm run`, npm put node_modules/.bin folders (and its node-gyp-bin) before the
 * user's PATH; Claude Code does not, so they are dropped.
 */
export function hookEnv(project: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  let dirs = (env.PATH ?? '').split(path.delimiter);
  if (env.npm_command || env.npm_lifecycle_event) {
    const first = dirs.findIndex((dir) => !/[\\/](node_modules[\\/]\.bin|node-gyp-bin)[\\/]?$/.test(dir));
    dirs = first < 0 ? [] : dirs.slice(first);
  }
  return { ...env, PATH: dirs.join(path.delimiter), CLAUDE_PROJECT_DIR: project };
}

/** `$NAME` or `${NAME}` at `text[i]` for a variable memdir knows: its value and where the reference ends; undefined for any other `$`. */
function variableAt(text: string, i: number, env: NodeJS.ProcessEnv): { value: string; end: number } | undefined {
  const match = /^\$(?:\{(\w+)\}|(\w+))/.exec(text.slice(i));
  const name = match?.[1] ?? match?.[2];
  const value = name && (KNOWN_VARIABLES as readonly string[]).includes(name) ? env[name] : undefined;
  return value === undefined ? undefined : { value, end: i + match![0].length };
}

/** Double-quoted text with the known variables expanded; undefined for anything else the shell would interpret there. */
function doubleQuoted(inner: string, env: NodeJS.ProcessEnv): string | undefined {
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '$') {
      const variable = variableAt(inner, i, env);
      if (!variable) return undefined;
      out += variable.value;
      i = variable.end - 1;
    } else if (/[`\\!]/.test(inner[i]!)) {
      return undefined;
    } else {
      out += inner[i];
    }
  }
  return out;
}

/**
 * The words of a plain command line (quotes, `~/` at a word's start, `$CLAUDE_PROJECT_DIR` and
 * `$HOME`); undefined for anything the shell would interpret further.
 */
export function plainWords(text: string, env: NodeJS.ProcessEnv): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return undefined;
      const inner = c === '"' ? doubleQuoted(text.slice(i + 1, end), env) : text.slice(i + 1, end);
      if (inner === undefined) return undefined;
      word = (word ?? '') + inner;
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '~' && word === undefined && text[i + 1] === '/') {
      word = homeDir(env);
    } else if (c === '$') {
      // Unquoted, the shell would split the value at blanks and expand its wildcards.
      const variable = variableAt(text, i, env);
      if (!variable || /[\s*?[\]]/.test(variable.value)) return undefined;
      word = (word ?? '') + variable.value;
      i = variable.end - 1;
    } else if (/[;&|<>()`\\*?[\]{}~#!]/.test(c)) {
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

/**
 * The interpreter a script's `#!` line names that would not be found (`#!/usr/bin/env node` with
 * no node on PATH: the shell's exit 127), read from the file's first line, nothing run.
 */
function missingInterpreter(file: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  let head: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(256);
      head = buffer.toString('latin1', 0, fs.readSync(fd, buffer, 0, buffer.length, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const line = /^#!\s*(\S+)(?:[ \t]+(\S+))?/.exec(head.split('\n', 1)[0]!);
  if (!line) return undefined;
  const [, interpreter, argument] = line as unknown as [string, string, string | undefined];
  if (!executable(interpreter)) return interpreter;
  if (path.basename(interpreter) === 'env' && argument !== undefined && !argument.startsWith('-') && !findProgram(argument, cwd, env)) return argument;
  return undefined;
}

/** A program found on disk, checked for the interpreter its `#!` line names. */
function found(file: string, cwd: string, env: NodeJS.ProcessEnv, detail = file): ProgramCheck {
  const interpreter = missingInterpreter(file, cwd, env);
  return interpreter ? { runs: false, detail: messages.hookInterpreterMissing(file, interpreter) } : { runs: true, detail, program: file };
}

/** The memdir a hook without a command of its own finds (and `npx memdir` runs without downloading): the project's node_modules/.bin, then PATH. */
export function findMemdir(project: string, env: NodeJS.ProcessEnv = process.env): ProgramCheck {
  const file = findProgram('node_modules/.bin/memdir', project, env) ?? findProgram('memdir', project, env);
  return file ? found(file, project, env) : { runs: false, detail: messages.hookProgramMissing('memdir') };
}

/** Whether the memdir that `prefix` (the hook command before `<subcommand> --hook`) names would run from `project` in `env` (see `hookEnv`), nothing run. */
export function checkHookCommand(prefix: string, project: string, env: NodeJS.ProcessEnv = process.env): ProgramCheck {
  const words = plainWords(prefix, env);
  if (!words || words.length === 0) return { runs: undefined, detail: messages.hookCommandNotPlain() };
  const [program, ...rest] = words as [string, ...string[]];
  const file = findProgram(program, project, env);
  if (!file) return { runs: false, detail: messages.hookProgramMissing(program) };
  if (program === 'npx') {
    const memdir = rest.find((word) => !word.startsWith('-'));
    return memdir === 'memdir' || memdir?.startsWith('memdir@') ? findMemdir(project, env) : { runs: undefined, detail: messages.hookCommandNotPlain() };
  }
  // `node …/memdir.cjs`: the script must be there too.
  if (path.basename(file) === 'node' && rest[0] !== undefined && !rest[0].startsWith('-')) {
    const script = path.resolve(project, rest[0]);
    return fs.existsSync(script) ? { runs: true, detail: `${file} ${script}`, program: script } : { runs: false, detail: messages.hookProgramMissing(rest[0]) };
  }
  return found(file, project, env);
}
