import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { surelyNoMemory, writePaths } from '../../src/guard/place.js';
import { memoryDirBounds } from '../../src/store/memory-bounds.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/** The guard's outside-write test: it may only err towards "may be a memory" (then the judge decides). */
describe('surelyNoMemory', () => {
  const setup = () => {
    const root = tempDir('memdir-place-');
    const projects = path.join(root, 'home', '.claude', 'projects');
    const memory = path.join(projects, '-app', 'memory');
    fs.mkdirSync(memory, { recursive: true });
    fs.mkdirSync(path.join(root, 'app'));
    return { root, projects, memory };
  };

  test('a file that is no Markdown by any reading of its path passes on its name alone', () => {
    const { root } = setup();
    expect(surelyNoMemory(writePaths('src/app.ts', path.join(root, 'app')))).toBe(true);
    expect(surelyNoMemory(writePaths('README.md', path.join(root, 'app')))).toBe(false);
    expect(surelyNoMemory(writePaths('NOTES.MD', path.join(root, 'app')))).toBe(false);
  });

  test('Markdown outside the bounds passes; inside them, however named, it does not', () => {
    const { root, projects, memory } = setup();
    const app = path.join(root, 'app');
    expect(surelyNoMemory(writePaths('README.md', app), [projects])).toBe(true);
    expect(surelyNoMemory(writePaths(path.join(memory, 'MEMORY.md'), app), [projects])).toBe(false);
    // Another case, and the decomposed form HFS+ stores names in, may be the same folder on the volume.
    expect(surelyNoMemory(writePaths(path.join(memory.toUpperCase(), 'MEMORY.md'), app), [projects])).toBe(false);
    const cafe = path.join(root, 'caf\u00e9');
    fs.mkdirSync(cafe);
    expect(surelyNoMemory(writePaths(path.join(root, 'cafe\u0301', 'x.md'), app), [cafe])).toBe(false);
    // A bound's own folder named through a link.
    fs.symlinkSync(projects, path.join(root, 'linked'));
    expect(surelyNoMemory(writePaths('x.md', app), [path.join(root, 'linked')])).toBe(true);
    expect(surelyNoMemory(writePaths(path.join(memory, 'x.md'), app), [path.join(root, 'linked')])).toBe(false);
  });

  test('a path that cannot be followed is never passed', () => {
    const { root, projects } = setup();
    const file = path.join(root, 'app', 'plain');
    fs.writeFileSync(file, '');
    // A file used as a folder: the file system refuses it, and so the test cannot say where it lands.
    expect(surelyNoMemory(writePaths(path.join(file, 'x.md'), root), [projects])).toBe(false);
  });
});

describe('memoryDirBounds', () => {
  const setup = () => {
    const root = tempDir('memdir-bounds-');
    const home = path.join(root, 'home');
    const cwd = path.join(root, 'app');
    fs.mkdirSync(home);
    fs.mkdirSync(cwd);
    return { root, home, cwd, env: { HOME: home } };
  };

  test('the config home’s projects folder and every settings file’s directory, trusted or not', () => {
    const { root, home, cwd, env } = setup();
    writeTree(path.join(cwd, '.claude'), { 'settings.json': JSON.stringify({ autoMemoryDirectory: path.join(root, 'team-mem') }), 'settings.local.json': '' });
    writeTree(path.join(home, '.claude'), { 'settings.json': JSON.stringify({ autoMemoryDirectory: '~/mem', other: 1 }) });
    expect(memoryDirBounds({ cwd, env })).toEqual([path.join(home, '.claude', 'projects'), path.join(root, 'team-mem'), path.join(home, 'mem')]);
    expect(memoryDirBounds({ cwd, env: { ...env, CLAUDE_CONFIG_DIR: path.join(root, 'config') } })).toEqual([path.join(root, 'config', 'projects'), path.join(root, 'team-mem')]);
  });

  test('--dir, then the override variable, is the one bound', () => {
    const { root, cwd, env } = setup();
    expect(memoryDirBounds({ cwd, env, dir: 'mem' })).toEqual([path.join(cwd, 'mem')]);
    expect(memoryDirBounds({ cwd, env: { ...env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: path.join(root, 'o') } })).toEqual([path.join(root, 'o')]);
  });

  test('anything not plainly valid leaves the answer to resolving, which reports it', () => {
    const { home, cwd, env } = setup();
    writeTree(path.join(home, '.claude'), { 'settings.json': '{ not json' });
    expect(memoryDirBounds({ cwd, env })).toBeUndefined();
    writeTree(path.join(home, '.claude'), { 'settings.json': JSON.stringify({ autoMemoryDirectory: 'relative/mem' }) });
    expect(memoryDirBounds({ cwd, env })).toBeUndefined();
    writeTree(path.join(home, '.claude'), { 'settings.json': JSON.stringify({ autoMemoryDirectory: 7 }) });
    expect(memoryDirBounds({ cwd, env })).toBeUndefined();
    expect(memoryDirBounds({ cwd, env: { ...env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: 'relative' } })).toBeUndefined();
  });
});
