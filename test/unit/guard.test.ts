import { describe, expect, test } from 'vitest';
import { sectionSettings } from '../../src/config/sections.js';
import { judgeWrite } from '../../src/guard/check.js';
import { proposedText } from '../../src/guard/edit.js';

const settings = sectionSettings('guard', {});
const KEY = `AKIA${'QYLPMN5HHHBKZV7E'}`;
const topic = (body: string) => `---\nname: AWS\ndescription: Where the billing export runs\ntype: reference\n---\n${body}`;

describe('the write as Claude Code applies it', () => {
  test('Edit replaces one occurrence, refuses two without replace_all, needs a match; MultiEdit runs in order', () => {
    expect(proposedText('Edit', { old_string: 'a', new_string: 'b' }, 'xax')).toBe('xbx');
    expect(proposedText('Edit', { old_string: 'a', new_string: 'b' }, 'aa')).toBeUndefined();
    expect(proposedText('Edit', { old_string: 'a', new_string: 'b', replace_all: true }, 'aa')).toBe('bb');
    expect(proposedText('Edit', { old_string: 'z', new_string: 'b' }, 'aa')).toBeUndefined();
    expect(proposedText('Edit', { old_string: '', new_string: 'new' }, undefined)).toBe('new');
    expect(
      proposedText(
        'MultiEdit',
        {
          edits: [
            { old_string: 'a', new_string: 'b' },
            { old_string: 'b', new_string: 'c' },
          ],
        },
        'a',
      ),
    ).toBe('c');
    expect(
      proposedText(
        'MultiEdit',
        {
          edits: [
            { old_string: 'a', new_string: 'b' },
            { old_string: 'q', new_string: 'c' },
          ],
        },
        'a',
      ),
    ).toBeUndefined();
    expect(proposedText('Write', { content: 7 }, 'a')).toBeUndefined();
  });
});

describe('only what the write adds counts', () => {
  test('a secret already in the file does not block an edit elsewhere in it; a new one does', () => {
    const before = topic(`Key: ${KEY}\n`);
    expect(judgeWrite({ file: 'reference_aws.md', before, after: `${before}Runs nightly.\n`, index: undefined }, settings)).toEqual({ block: [], warn: [] });
    const added = judgeWrite({ file: 'reference_aws.md', before: topic('Runs nightly.\n'), after: topic(`Runs nightly.\nKey: ${KEY}\n`), index: undefined }, settings);
    expect(added.block).toHaveLength(1);
    expect(added.block[0]).toMatch(/^reference_aws\.md line 7 would hold a secret \(/);
  });

  test('an index over the limit takes an edit that shortens it, and refuses one that grows it', () => {
    const index = Array.from({ length: 210 }, (_, i) => `- [M${i}](m${i}.md) — memory ${i}\n`).join('');
    const shorter = index.split('\n').slice(5).join('\n');
    expect(judgeWrite({ file: 'MEMORY.md', before: index, after: shorter, index: undefined }, settings)).toEqual({ block: [], warn: [] });
    expect(judgeWrite({ file: 'MEMORY.md', before: index, after: `${index}- [New](new.md) — one more\n`, index: undefined }, settings).block).toEqual([
      'MEMORY.md would be 211 lines; Claude Code loads 200. Put the detail in a topic file and add a one-line pointer.',
    ]);
  });

  test('a new topic file without its pointer passes unless unindexedTopic asks', () => {
    const write = { file: 'project_deploy.md', before: undefined, after: topic('Tuesdays.\n'), index: '- [Other](other.md) — x\n' };
    expect(judgeWrite(write, settings)).toEqual({ block: [], warn: [] });
    expect(judgeWrite(write, sectionSettings('guard', { unindexedTopic: 'warn' })).warn).toEqual([
      'project_deploy.md is not in MEMORY.md yet: add a one-line pointer - [Title](project_deploy.md) — hook, or the agent will not find it.',
    ]);
  });
});
