import { describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { lintDirectory } from '../../src/lint/engine.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { planRefactor, splitAtHeadings, type PlanInputFile, type RefactorPlan } from '../../src/refactor/plan.js';
import { inferType } from '../../src/refactor/classify.js';
import { lostLines } from '../../src/refactor/verify.js';
import { bloatedIndex, mixedIndex, pointerIndex } from '../helpers/bloated.js';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';

const ANCHOR = new Date(2026, 1, 26, 12);

function input(files: Record<string, string>): Map<string, PlanInputFile> {
  return new Map(Object.entries(files).map(([file, text]) => [file, { text, anchor: ANCHOR, anchorSource: 'modified: 2026-02-26' }]));
}

function applied(files: Map<string, PlanInputFile>, plan: RefactorPlan): Map<string, PlanInputFile> {
  const out = new Map(files);
  for (const [file, content] of plan.changes) {
    if (content === null) out.delete(file);
    else out.set(file, { text: content, anchor: ANCHOR, anchorSource: 'modified: 2026-02-26' });
  }
  return out;
}

/** Refactor, check nothing was lost, lint the result, refactor again. */
function roundTrip(files: Map<string, PlanInputFile>) {
  const plan = planRefactor(files);
  expect(lostLines(new Map([...files].map(([k, v]) => [k, v.text])), plan)).toEqual([]);
  const after = applied(files, plan);
  const findings = lintDirectory(rawDirectory('/mem', Object.fromEntries([...after].map(([k, v]) => [k, v.text]))), DEFAULT_CONFIG);
  const indexErrors = findings.filter((f) => f.severity === 'error' && ['MEM001', 'MEM002', 'MEM003', 'MEM006', 'MEM007'].includes(f.ruleId));
  expect(indexErrors).toEqual([]);
  // One short line about the index may stay under its title (issue 15); nothing else that is not a pointer.
  const topLine =
    after
      .get('MEMORY.md')!
      .text.split('\n')
      .findIndex((l, i) => i > 0 && l.trim() && !l.startsWith('#')) + 1;
  const preamble = (f: { ruleId: string; line: number }) => f.ruleId === 'MEM005' && f.line === topLine && topLine <= 3;
  expect(findings.filter((f) => (f.ruleId === 'MEM005' || f.ruleId === 'MEM008' || f.ruleId === 'MEM004') && !preamble(f))).toEqual([]);
  const again = planRefactor(after);
  expect([...again.changes.keys()]).toEqual([]);
  return { plan, after, findings };
}

function readDir(dir: string): Map<string, PlanInputFile> {
  return input(
    Object.fromEntries(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
    ),
  );
}

describe('real directories', () => {
  test.each(fixtureMemoryDirs().map((d) => [path.basename(path.dirname(path.dirname(d))), d]))('%s: nothing lost, lint-clean index, idempotent', (_name, dir) => {
    roundTrip(readDir(dir));
  });
});

describe('generated bloated indexes', () => {
  test('300+ lines of sections, bullets, tables and prose', () => {
    const files = input({ 'MEMORY.md': bloatedIndex(40, 8) });
    expect(files.get('MEMORY.md')!.text.split('\n').length).toBeGreaterThan(300);
    const { plan, after } = roundTrip(files);
    expect(plan.before.complete).toBe(false);
    expect(plan.after).toMatchObject({ complete: true, inlineLines: 0, pointers: after.size - 1 });
    expect(plan.operations.some((o) => o.kind === 'merge')).toBe(true);
    const types = [...after.values()].map((f) => /^type: (\w+)$/m.exec(f.text)?.[1]).filter(Boolean);
    expect(new Set(types)).toEqual(new Set(['project', 'feedback', 'reference']));
    expect(plan.operations.filter((o) => o.kind === 'rewrite-date').length).toBeGreaterThan(0);
  });

  test('a 200 KB single-line index', () => {
    const { plan, after } = roundTrip(input({ 'MEMORY.md': `${'Everything the agent learned in one endless line. '.repeat(4000)}` }));
    expect(plan.after.lines).toBeLessThan(10);
    expect([...after.keys()].filter((f) => f !== 'MEMORY.md')).toHaveLength(1);
  });

  test('mixed Chinese and English, with relative dates in both', () => {
    const { plan, after } = roundTrip(input({ 'MEMORY.md': mixedIndex, 'project_existing.md': '---\nname: 已有记忆\ndescription: 已经存在的记忆文件，关于发布\ntype: project\n---\n\n内容。\n' }));
    const release = [...after].find(([, f]) => f.text.includes('name: 发布计划'))![1].text;
    expect(release).toContain('2026-03-05开始冻结主干，2026-02-27通知移动端团队');
    expect(release).toContain('The freeze starts 2026-03-05; tell the mobile team 2026-02-27.');
    expect(plan.operations.filter((o) => o.kind === 'rewrite-date').map((o) => (o as { from: string }).from)).toEqual(['下周四', '明天', 'next Thursday', 'tomorrow']);
    expect([...after].find(([, f]) => f.text.includes('name: 用户偏好'))![1].text).toMatch(/^type: (feedback|user)$/m);
  });

  test('400 sections: a partial second level, the rest by type, section headings kept', () => {
    const { plan, after } = roundTrip(input({ 'MEMORY.md': bloatedIndex(400, 3) }));
    expect(plan.after.complete).toBe(true);
    expect(plan.after.lines).toBeLessThanOrEqual(200);
    const subIndexes = [...after.keys()].filter((f) => f.startsWith('index_'));
    expect(subIndexes.length).toBeGreaterThan(0);
    expect(subIndexes.length).toBeLessThan(10);
    const index = after.get('MEMORY.md')!.text;
    // Direct pointers for as many memories as fit, feedback first; each sub-index pointer says what it holds.
    expect(plan.after.pointers - subIndexes.length).toBeGreaterThan(50);
    for (const sub of subIndexes) expect(index).toMatch(new RegExp(`\\(${sub}\\) — \\d+ more \\w+ memories: `));
    const direct = [...index.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!).filter((l) => !l.startsWith('index_'));
    expect(direct.every((l) => l.startsWith('feedback_'))).toBe(true);
    expect([index, ...subIndexes.map((f) => after.get(f)!.text)].join('\n')).toContain('## Section 399: release decisions');
  });

  test('249 pointers: MEMORY.md keeps as many as fit, one sub-index holds the rest', () => {
    const { index, files } = pointerIndex(249);
    const { plan, after } = roundTrip(input({ 'MEMORY.md': index, ...files }));
    expect(plan.before.complete).toBe(false);
    expect(plan.after.complete).toBe(true);
    const subIndexes = [...after.keys()].filter((f) => f.startsWith('index_'));
    expect(subIndexes).toEqual(['index_project.md']);
    const links = (text: string) => [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    const direct = links(after.get('MEMORY.md')!.text).filter((l) => !l.startsWith('index_'));
    expect(direct.length).toBeGreaterThan(180);
    expect(new Set([...direct, ...links(after.get('index_project.md')!.text)]).size).toBe(249);
  });
});

describe('planner details', () => {
  test('pointers keep their hook and section; what a duplicate pointer says moves into the file', () => {
    const plan = planRefactor(
      input({
        'MEMORY.md': '## Team\n- [A](a.md) — first hook\n- [A again](a.md) — duplicate\n',
        'a.md': '---\nname: A\ndescription: the memory about the team process\ntype: project\n---\nx\n\n**Why:** y\n**How to apply:** z\n',
      }),
    );
    expect(plan.changes.get('MEMORY.md')).toBe('# Memory\n\n## Team\n- [A](a.md) — first hook\n');
    expect(plan.changes.get('a.md')).toContain('**How to apply:** z\n\n- A again — duplicate\n');
    expect(plan.dropped).toEqual([]);
  });

  test('detail bullets under a pointer move into its file', () => {
    const plan = planRefactor(
      input({ 'MEMORY.md': '- [A](a.md) — hook\n  - detail one\n  - detail two\n', 'a.md': '---\nname: A\ndescription: the memory about the team process\ntype: user\n---\nBody\n' }),
    );
    expect(plan.changes.get('a.md')).toBe('---\nname: A\ndescription: the memory about the team process\ntype: user\n---\nBody\n\n  - detail one\n  - detail two\n');
  });

  test('missing frontmatter is filled, unknown keys kept', () => {
    const plan = planRefactor(
      input({ 'MEMORY.md': '- [Notes](feedback_notes.md) — terse replies\n', 'feedback_notes.md': '---\noriginSessionId: abc\n---\nNever add a summary at the end of a reply.\n' }),
    );
    expect(plan.changes.get('feedback_notes.md')).toBe(
      '---\noriginSessionId: abc\ntype: feedback\nname: feedback notes\ndescription: Never add a summary at the end of a reply.\n---\nNever add a summary at the end of a reply.\n',
    );
  });

  test('near-duplicates merge into the newer file', () => {
    const files = input({
      'feedback_a.md':
        '---\nname: A\ndescription: No recap at the end of responses\ntype: feedback\n---\nDo not summarize what was done at the end of a response; the user reads the diff.\nOlder extra line.\n',
      'feedback_b.md': '---\nname: B\ndescription: No recap at the end of responses\ntype: feedback\n---\nDo not summarize what was done at the end of a response; the user reads the diff.\n',
    });
    files.get('feedback_b.md')!.anchor = new Date(2026, 2, 1);
    const plan = planRefactor(files);
    expect(plan.operations).toContainEqual({ kind: 'merge', into: 'feedback_b.md', from: 'feedback_a.md', similarity: expect.any(Number) });
    expect(plan.changes.get('feedback_a.md')).toBeNull();
    expect(plan.changes.get('feedback_b.md')).toContain('Older extra line.');
  });

  test('files over 200 lines split at headings', () => {
    const body = Array.from({ length: 5 }, (_, s) => [`## Part ${s}`, ...Array.from({ length: 60 }, (_, l) => `line ${s}.${l}`)].join('\n')).join('\n');
    const parts = splitAtHeadings(body, 190);
    expect(parts.length).toBe(3);
    expect(parts.every((p) => p.split('\n').length <= 191)).toBe(true);
    const plan = planRefactor(input({ 'project_big.md': `---\nname: Big\ndescription: A very long project memory to split\ntype: project\n---\n${body}\n` }));
    expect(plan.operations.find((o) => o.kind === 'split')).toMatchObject({ path: 'project_big.md', parts: ['project_big_part_2.md', 'project_big_part_3.md'] });
  });

  test('type inference', () => {
    expect(inferType('Never squash commits; the user prefers linear history')).toBe('feedback');
    expect(inferType('Grafana board https://grafana.example.com/d/1')).toBe('reference');
    expect(inferType('I am a data engineer with 10 years of background in SQL')).toBe('user');
    expect(inferType('Release freeze until 2026-03-05')).toBe('project');
    expect(inferType('anything', 'Dashboards and links')).toBe('reference');
  });
});
