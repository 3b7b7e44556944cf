import fs from 'node:fs';
import path from 'node:path';
import { snapshotTree, writeTree } from './temp.js';

const TEMP_FILE = /(^|\/)\.memdir-tmp-/;
const STATE_DIR = '.memdir/';

/** What a finished writer must never leave behind: temp files, a lock (or one set aside), a journal. */
export function leftovers(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => TEMP_FILE.test(file) || /^\.memdir\/(lock|journal)/.test(file))
    .sort();
}

/**
 * The memory as the user sees it: every file with its content, without
 * memdir's state folder and temp files (those are checked by `leftovers`).
 */
export function memoryState(dir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshotTree(dir)).filter(([file]) => !file.startsWith(STATE_DIR) && !TEMP_FILE.test(file)));
}

/** Same state, compared as one string (cheap equality for many trials). */
export const stateKey = (state: Record<string, string>): string => JSON.stringify(state);

/**
 * Run `task` for each item, at most `limit` at a time: enough processes to
 * keep two cores busy without flooding them. `items` may be a lazy iterator
 * that stops on its own (e.g. when a trial finds there are no more steps).
 */
export async function inPool<T, R>(items: Iterable<T>, limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const iterator = items[Symbol.iterator]();
  const results: R[] = [];
  const worker = async (): Promise<void> => {
    for (let next = iterator.next(); !next.done; next = iterator.next()) results.push(await task(next.value));
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

/** A stack trace in CLI output: memdir must print one line instead. */
export const STACK_TRACE = /^\s+at .+\(?.+:\d+:\d+\)?$/m;

/** Markdown pointers (`[title](target)`) of an index text, by target. */
export function pointerTargets(indexText: string): string[] {
  return [...indexText.matchAll(/^\s*[-*]\s+\[[^\]]*\]\(([^)]+)\)/gm)].map((m) => decodeURI(m[1]!));
}

/** Write the files with one fixed modification time, so date anchors do not depend on when the test runs. */
export function writeDatedTree(dir: string, files: Record<string, string>, time = new Date('2026-02-26T12:00:00Z')): void {
  writeTree(dir, files);
  for (const rel of Object.keys(files)) fs.utimesSync(path.join(dir, rel), time, time);
}
