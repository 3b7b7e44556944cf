import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readRecallIndex } from '../../src/recall/index-file.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const HOOKS = 6;
const FILES = 300;

describe('recall index under concurrent hooks', () => {
  test('hooks racing on the first build all answer, and leave one whole index', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    const files: Record<string, string> = { 'MEMORY.md': '' };
    for (let i = 0; i < FILES; i++) files[`project_${i}.md`] = `---\nname: Note ${i}\ndescription: release freeze note ${i} for the mobile branch\ntype: project\n---\n\nrelease ${i}\n`;
    writeTree(dir, files);
    const env = cleanEnv(path.join(root, 'home'));
    const hook = (i: number) =>
      runMemdir(['recall', '--hook', '--dir', dir], {
        cwd: root,
        env,
        input: JSON.stringify({ session_id: `race-${i}`, prompt: 'can I merge the mobile branch during the release freeze?', cwd: root }),
        timeoutMs: 60_000,
      });
    const results = await Promise.all(Array.from({ length: HOOKS }, (_, i) => hook(i)));
    for (const result of results) {
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout).hookSpecificOutput.additionalContext).toContain('release freeze note');
    }
    // Every hook ranked the same documents, whichever index it read or wrote.
    expect(new Set(results.map((r) => r.stdout)).size).toBe(1);
    expect(readRecallIndex(dir).size).toBe(FILES);
    expect(fs.readdirSync(path.join(dir, '.memdir')).filter((name) => name.includes('tmp'))).toEqual([]);

    // A file edited while hooks run is picked up by the next one.
    writeTree(dir, { 'project_7.md': '---\nname: Note 7\ndescription: the zeppelin hangar moved\ntype: project\n---\n\nhangar\n' });
    const after = await runMemdir(['recall', '--hook', '--dir', dir], { cwd: root, env, input: JSON.stringify({ session_id: 'after', prompt: 'where is the zeppelin hangar now?', cwd: root }) });
    expect(JSON.parse(after.stdout).hookSpecificOutput.additionalContext).toContain('zeppelin hangar moved');
  });
});
