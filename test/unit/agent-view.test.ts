import { describe, expect, test } from 'vitest';
import { agentView, agentViewLines, fileLines } from '../../src/core/agent-view.js';

const INDEX = '# Memory\n\n- [Workspace](project_workspace.md) — other repos are READ-ONLY (separate instance owns them)\n- [Push](feedback_push.md) — never push to main\n';

describe('agent view', () => {
  test('loaded lines, characters and words before → after; the lost rule is named; files by kind in path order', () => {
    const before = new Map([
      ['MEMORY.md', INDEX],
      ['project_workspace.md', 'body\n'],
      ['feedback_old.md', 'a\nb\nc\n'],
    ]);
    const after = '# Memory\n\n- [Workspace](project_workspace.md) — other repos are…\n- [Push](feedback_push.md) — never push to main\n';
    const changes = new Map<string, string | null>([
      ['MEMORY.md', after],
      ['project_workspace.md', 'body\nOther repos are READ-ONLY.\n'],
      ['feedback_old.md', null],
      ['feedback_push.md', 'x\n'],
    ]);
    const view = agentView(before, changes);
    expect(view.loaded.before).toEqual({ lines: 4, characters: INDEX.trim().length, words: 15 });
    expect(view.loaded.after.lines).toBe(4);
    expect(view.loaded.after.words).toBeLessThan(view.loaded.before.words);
    expect(view.wordsNoLongerLoaded).toBe(5);
    expect(view.rules).toEqual({ before: 2, after: 1, lost: [{ rule: 'other repos are READ-ONLY', keptIn: 'project_workspace.md' }] });
    expect(view.files.map((f) => `${f.change} ${f.path}`)).toEqual(['changed MEMORY.md', 'deleted feedback_old.md', 'created feedback_push.md', 'changed project_workspace.md']);
    expect(view.counts).toEqual({ changed: 2, created: 1, deleted: 1 });

    expect(agentViewLines(view, true)).toEqual([
      `what the agent loads of MEMORY.md: 4 → 4 lines, ${INDEX.trim().length} → ${after.trim().length} characters, 15 → ${view.loaded.after.words} words (5 no longer loaded)`,
      'standing rules the agent sees: 2 → 1 (1 no longer loaded)',
      '  no longer loaded: "other repos are READ-ONLY" (now only in project_workspace.md)',
      'would touch 4 file(s): 2 changed, 1 created, 1 deleted',
    ]);
    expect(fileLines(view, new Map([['feedback_old.md', ['merged into feedback_push.md']]]))).toEqual([
      '  changed MEMORY.md (4 → 4 lines)',
      '  deleted feedback_old.md (3 lines): merged into feedback_push.md',
      '  created feedback_push.md (1 line)',
      '  changed project_workspace.md (1 → 2 lines)',
    ]);
  });

  test('what the agent does not load does not count: an index past 200 lines, before and after', () => {
    const long = Array.from({ length: 250 }, (_, i) => `- [M${i}](m${i}.md) — always check item ${i}`).join('\n');
    const view = agentView(new Map([['MEMORY.md', long]]), new Map());
    expect(view.loaded.before.lines).toBe(200);
    expect(view.rules).toEqual({ before: 200, after: 200, lost: [] });
    expect(view.files).toEqual([]);
  });

  test('a rule cut from a hook is found in the topic file that already held it, changed or not', () => {
    const before = new Map([
      ['MEMORY.md', INDEX],
      ['project_workspace.md', '---\nname: Workspace\n---\n\nOther repos are read-only: a separate instance owns them.\n'],
    ]);
    const view = agentView(before, new Map([['MEMORY.md', INDEX.replace(' — other repos are READ-ONLY (separate instance owns them)', '')]]));
    expect(view.rules.lost).toEqual([{ rule: 'other repos are READ-ONLY', keptIn: 'project_workspace.md' }]);
  });

  test('a lost rule whose words no written file holds is named without a place', () => {
    const view = agentView(new Map([['MEMORY.md', INDEX]]), new Map([['MEMORY.md', '# Memory\n']]));
    expect(view.rules.lost).toEqual([
      { rule: 'other repos are READ-ONLY', keptIn: null },
      { rule: 'never push to main', keptIn: null },
    ]);
  });

  test('an unchanged index is the same before and after; a deleted one loads nothing', () => {
    const same = agentView(new Map([['MEMORY.md', INDEX]]), new Map([['a.md', 'x\n']]));
    expect(same.loaded.after).toEqual(same.loaded.before);
    const gone = agentView(new Map([['MEMORY.md', INDEX]]), new Map([['MEMORY.md', null]]));
    expect(gone.loaded.after).toEqual({ lines: 0, characters: 0, words: 0 });
    expect(gone.rules.after).toBe(0);
  });
});

test('a lost rule holding a secret is named with the secret redacted', () => {
  const token = `ghp_${'A1b2C3d4E5'.repeat(3)}123456`;
  const index = `- [Deploy](feedback_deploy.md) — never push with token ${token}\n`;
  const view = agentView(new Map([['MEMORY.md', index]]), new Map([['MEMORY.md', '- [Deploy](feedback_deploy.md)\n']]));
  expect(view.rules.lost).toHaveLength(1);
  expect(view.rules.lost[0]!.rule).not.toContain(token);
  expect(agentViewLines(view, false).join('\n')).not.toContain(token);
});
