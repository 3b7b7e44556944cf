import { describe, expect, test } from 'vitest';
import { planDream, type RepoFacts } from '../../src/dream/plan.js';
import type { PlanInputFile } from '../../src/restructure/phases/state.js';

const ANCHOR = new Date('2026-11-01T00:00:00Z');
const TODAY = new Date('2026-12-03T10:00:00Z');
const topic = (name: string, type: string, body: string, modified = '2026-10-01') => `---\nname: ${name}\ndescription: about ${name}\ntype: ${type}\nmodified: ${modified}\n---\n\n${body}\n`;
/** Each file anchored at its `modified:` (the index at ANCHOR), as the caller resolves it. */
const input = (files: Record<string, string>) =>
  new Map<string, PlanInputFile>(
    Object.entries(files).map(([file, text]) => {
      const modified = /^modified: (.*)$/m.exec(text)?.[1];
      return [file, { text, anchor: modified ? new Date(modified) : ANCHOR, anchorSource: modified ? `modified: ${modified}` : 'test' }];
    }),
  );
const gone = (name: string, how: string): RepoFacts => ({ files: new Set(), deleted: new Set(), gone: new Map([[`symbol\u0000${name}`, how]]) });

describe('dream in place', () => {
  test('a CRLF index with a BOM keeps every byte but the dead pointer line', () => {
    const index = '\uFEFF# Memory\r\n\r\n| a | b |\r\n|---|---|\r\n\r\n- [Live](project_live.md) — live\r\n- [Gone](project_gone.md) — gone for good\r\n\r\n<!-- kept -->\r\n';
    const { plan, actions } = planDream(input({ 'MEMORY.md': index, 'project_live.md': topic('Live', 'project', 'Live.') }), { today: TODAY });
    expect(plan.changes.get('MEMORY.md')).toBe(index.replace('- [Gone](project_gone.md) — gone for good\r\n', ''));
    expect([...plan.changes.keys()]).toEqual(['MEMORY.md']);
    expect(actions).toEqual([{ kind: 'dead-pointer', path: 'MEMORY.md', effect: 'rewrite', reason: 'dropped the pointer to project_gone.md: it does not exist' }]);
  });

  test('drift marks a stale line once, indented under its list item; pruning removes the line and its mark', () => {
    const files = {
      'MEMORY.md': '- [Api](project_api.md) — the api\n',
      'project_api.md': topic('Api', 'project', '- We moved caching out of `get_all()` in July.\n- The team meets on Tuesdays.'),
    };
    const repo = gone('get_all', 'git grep finds no get_all; removed in 30ab4d0');
    const first = planDream(input(files), { repo, today: TODAY });
    const marked = first.plan.changes.get('project_api.md')!;
    expect(marked).toContain(
      '- We moved caching out of `get_all()` in July.\n  **Stale?** (2026-12-03) cites `get_all()`, which the repository no longer has (git grep finds no get_all; removed in 30ab4d0)\n- The team meets on Tuesdays.',
    );
    expect(planDream(input({ ...files, 'project_api.md': marked }), { repo, today: TODAY }).plan.changes.size).toBe(0);
    const pruned = planDream(input({ ...files, 'project_api.md': marked }), { repo, today: TODAY, pruneDrift: true }).plan.changes.get('project_api.md')!;
    expect(pruned).not.toContain('get_all');
    expect(pruned).toContain('- The team meets on Tuesdays.');
  });

  test('a contradiction is reported and left; --restructure applies it', () => {
    const files = {
      'MEMORY.md': '- [Old](project_freeze_old.md) — freeze\n- [New](project_freeze_new.md) — freeze moved\n',
      'project_freeze_old.md': topic('Release freeze', 'project', 'The mobile release freeze starts on 2026-03-05 for all teams.', '2026-01-10'),
      'project_freeze_new.md': topic('Release freeze moved', 'project', 'The mobile release freeze starts on 2026-03-12 for all teams.', '2026-02-20'),
    };
    const kept = planDream(input(files), { today: TODAY });
    expect(kept.plan.changes.size).toBe(0);
    expect(kept.plan.warnings.map((w) => w.path)).toEqual(['project_freeze_old.md']);
    expect(planDream(input(files), { today: TODAY, restructure: true }).actions).toContainEqual(expect.objectContaining({ kind: 'contradiction', path: 'project_freeze_old.md', effect: 'delete' }));
  });
});
