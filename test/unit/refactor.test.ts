import { describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { INDEX_LINE_WARN } from '../../src/core/limits.js';
import { isStandingRule } from '../../src/core/standing-rules.js';
import { lintDirectory } from '../../src/lint/engine.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { planRefactor, splitAtHeadings, type PlanInputFile, type RefactorPlan } from '../../src/refactor/plan.js';
import { inferType } from '../../src/restructure/classify.js';
import { lostLines, lostWords } from '../../src/restructure/verify.js';
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
  const before = new Map([...files].map(([k, v]) => [k, v.text]));
  expect(lostLines(before, plan)).toEqual([]);
  expect(lostWords(before, plan)).toEqual([]);
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
  // A line is shortened only past Claude Code's ~200-character warning, and never through a rule: lint's advice may stay.
  const indexLines = after.get('MEMORY.md')!.text.split('\n');
  const warnedOnly = (f: { ruleId: string; line: number }) => f.ruleId === 'MEM004' && (indexLines[f.line - 1]!.length <= INDEX_LINE_WARN || isStandingRule(indexLines[f.line - 1]!));
  expect(findings.filter((f) => (f.ruleId === 'MEM005' || f.ruleId === 'MEM008' || f.ruleId === 'MEM004') && !preamble(f) && !warnedOnly(f))).toEqual([]);
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
    // Direct pointers for as many memories as fit, every feedback memory first; each sub-index pointer says what it holds.
    expect(plan.after.pointers - subIndexes.length).toBeGreaterThan(50);
    for (const sub of subIndexes) expect(index).toMatch(new RegExp(`\\(${sub}\\) — \\d+ more \\w+ memories: `));
    const direct = [...index.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!).filter((l) => !l.startsWith('index_'));
    expect(direct.filter((l) => l.startsWith('feedback_')).sort()).toEqual([...after.keys()].filter((f) => f.startsWith('feedback_')).sort());
    expect(subIndexes.some((f) => f.startsWith('index_feedback'))).toBe(false);
    // Each demoted memory is reported with its reason.
    const demoted = plan.operations.filter((o) => o.kind === 'demote');
    expect(demoted.length).toBe(after.size - 1 - subIndexes.length - direct.length);
    expect(demoted[0]).toMatchObject({ into: 'index_project.md', reason: expect.stringContaining('standing rules stay in it before history') });
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
    // A non-taxonomy file prefix is a hint (refactor passes it as the heading): gotcha_ → feedback.
    expect(inferType('The build cache keeps stale objects after a branch switch', 'gotcha')).toBe('feedback');
    expect(inferType('What we did and what is next', 'session')).toBe('project');
  });
});

const body = (after: Map<string, PlanInputFile>, file: string) => after.get(file)?.text ?? '';
const links = (text: string) => [...text.matchAll(/\]\(([^)]+)\)/g)].map((m) => decodeURI(m[1]!));

describe('real-directory symptoms (issue 15)', () => {
  test('a one-line preamble stays under the title; it is not a memory', () => {
    const { after } = roundTrip(
      input({
        'MEMORY.md':
          '# Project Memory Index\n\nRead this index at session start; open the linked file when a memory looks relevant.\n\n## Project\n- [A](project_a.md) — what project A decided about billing\n',
        'project_a.md': '---\nname: A\ndescription: what project A decided about billing\ntype: project\n---\nBody.\n\n**Why:** y\n**How to apply:** z\n',
      }),
    );
    expect(body(after, 'MEMORY.md')).toBe(
      '# Project Memory Index\n\nRead this index at session start; open the linked file when a memory looks relevant.\n\n## Project\n- [A](project_a.md) — what project A decided about billing\n',
    );
    expect([...after.keys()].sort()).toEqual(['MEMORY.md', 'project_a.md']);
  });

  test('a longer preamble and an editor comment move to reference_memory_conventions.md, never a memory named after their first words', () => {
    const { plan, after } = roundTrip(
      input({
        'MEMORY.md':
          '# Auto memory index for the agentskills repo\n\nThis directory contains project-specific memory for Claude. Add a pointer line here when you add a file.\n\n<!-- Claude: add one line per topic file below, e.g. - [Title](file.md) — hook -->\n\n- [Testing](feedback_testing.md) — run the unit suite before every commit; integration tests need docker\n',
        'feedback_testing.md':
          '---\nname: Testing\ndescription: run the unit suite before every commit; integration tests need docker\ntype: feedback\n---\nRun it.\n\n**Why:** y\n**How to apply:** z\n',
      }),
    );
    expect([...after.keys()].sort()).toEqual(['MEMORY.md', 'feedback_testing.md', 'reference_memory_conventions.md']);
    expect(body(after, 'reference_memory_conventions.md')).toContain('<!-- Claude: add one line per topic file below');
    expect(body(after, 'MEMORY.md')).not.toContain('This directory contains');
    expect(plan.operations).toContainEqual({ kind: 'preamble', path: 'reference_memory_conventions.md', source: 'MEMORY.md lines 3–5', action: 'moved to a topic file' });
  });

  test('"; " and ":" separators, titles with ": ", a gotcha_ file without frontmatter: nothing refused, nothing renamed', () => {
    const { plan, after } = roundTrip(
      input({
        'MEMORY.md':
          '# Memory\n\n## Gotchas\n- [Build: cache must be cleared](gotcha_build_cache.md); run `make clean` after switching branches or the linker picks stale objects\n- [Never force-push](feedback_force_push.md): shared branches only get merges\n',
        'gotcha_build_cache.md': 'When switching branches the build cache keeps stale objects.\n\nNever skip `make clean`; it bit us twice.\n',
        'feedback_force_push.md':
          '---\nname: "Never force-push: shared branches"\ndescription: Force-pushing rewrote a teammate commit once; merges only on shared branches\ntype: feedback\n---\nNever.\n\n**Why:** y\n**How to apply:** z\n',
      }),
    );
    expect([...after.keys()].sort()).toEqual(['MEMORY.md', 'feedback_force_push.md', 'gotcha_build_cache.md']);
    expect(body(after, 'gotcha_build_cache.md')).toMatch(/^---\ntype: feedback\n/);
    expect(body(after, 'MEMORY.md')).toContain('- [Build: cache must be cleared](gotcha_build_cache.md); run `make clean`');
    expect(plan.warnings.filter((w) => w.message.includes('lose words'))).toEqual([]);
  });

  test('an index written as Chinese sections with ### sub-sections, a table, fenced code and --- rules', () => {
    const { after } = roundTrip(
      input({
        'MEMORY.md':
          '# 项目记忆\n\n## 部署流程\n\n### 预发布环境\n预发布环境在每周四上午部署，部署前必须通知测试组。\n\n| 环境 | 地址 |\n|---|---|\n| staging | https://staging.example.cn |\n\n---\n\n### 回滚\n```bash\nkubectl rollout undo deployment/api\n```\n回滚后要在群里说明原因。\n\n## 编码约定\n- 所有接口返回统一的错误码。\n',
      }),
    );
    const files = [...after.keys()].filter((f) => f !== 'MEMORY.md').sort();
    expect(files).toEqual(['feedback_预发布环境.md', 'project_回滚.md', 'project_编码约定.md']);
    const index = body(after, 'MEMORY.md');
    // The parent heading stays in the index, the sub-section headings in their files.
    expect(index).toMatch(/^## 部署流程\n- \[预发布环境\]\(feedback_预发布环境\.md\) — .+\n- \[回滚\]\(project_回滚\.md\) — /m);
    expect(body(after, 'project_回滚.md')).toContain('## 回滚\n\n```bash\nkubectl rollout undo deployment/api\n```\n回滚后要在群里说明原因。');
    expect(body(after, 'feedback_预发布环境.md').split('\n').slice(5)).not.toContain('---');
  });

  test('a new pointer says when the memory matters instead of repeating its title', () => {
    const { after } = roundTrip(input({ 'MEMORY.md': 'Durable lessons. Standing traps apply on every deploy: check the migration lock first.\n' }));
    const pointer = body(after, 'MEMORY.md')
      .split('\n')
      .find((l) => l.startsWith('- ['))!;
    expect(pointer).toBe('- [Durable lessons](project_durable_lessons.md) — Standing traps apply on every deploy: check the migration lock first.');
  });

  test('a second section under the same heading joins the first, and is reported as dropped with its reason', () => {
    const { plan, after } = roundTrip(
      input({
        'project_a.md': '---\nname: A\ndescription: the first memory about deploys\ntype: project\n---\n\nA.\n',
        'project_b.md': '---\nname: B\ndescription: the second memory about deploys\ntype: project\n---\n\nB.\n',
        'MEMORY.md': '## Staging\n- [A](project_a.md) — the first memory about deploys\n## Other\n# Staging\n- [B](project_b.md) — the second memory about deploys\n',
      }),
    );
    expect(body(after, 'MEMORY.md').match(/Staging/g)).toHaveLength(1);
    expect(plan.dropped).toContainEqual({ text: '# Staging', reason: 'a second section with this heading: what it held is under the one kept', source: 'MEMORY.md' });
  });

  test('a list with no heading above it is separate facts: one memory per item, its nested lines with it; under a heading the items stay one memory', () => {
    const facts = [
      '- The staging DB is reset every Monday at 06:00 UTC.',
      '- Use pnpm, never npm, in this repo.',
      '  - pnpm workspaces hold the packages.',
      '',
      '- The user is a data scientist on the billing team.',
      '- Grafana dashboards for the API live at grafana.example.com/d/api.',
    ].join('\n');
    const { after } = roundTrip(input({ 'MEMORY.md': `${facts}\n` }));
    expect([...after.keys()].filter((f) => f !== 'MEMORY.md').sort()).toEqual([
      'feedback_use_pnpm_never_npm_in_this_repo.md',
      'project_the_staging_db_is_reset_every_monday_at_06_00_utc.md',
      'reference_grafana_dashboards_for_the_api_live_at.md',
      'user_the_user_is_a_data_scientist_on_the_billing_team.md',
    ]);
    expect(body(after, 'feedback_use_pnpm_never_npm_in_this_repo.md')).toContain('- Use pnpm, never npm, in this repo.\n  - pnpm workspaces hold the packages.');
    expect(body(after, 'project_the_staging_db_is_reset_every_monday_at_06_00_utc.md')).toContain('name: The staging DB is reset every Monday at 06:00 UTC\n');
    const grouped = roundTrip(input({ 'MEMORY.md': `## Conventions\n${facts}\n` })).after;
    expect([...grouped.keys()].filter((f) => f !== 'MEMORY.md')).toHaveLength(1);
    // A paragraph among the items (an introduction) keeps them together too.
    const introduced = roundTrip(input({ 'MEMORY.md': `Things to know:\n${facts.replace('\n\n', '\n')}\n` })).after;
    expect([...introduced.keys()].filter((f) => f !== 'MEMORY.md')).toHaveLength(1);
  });

  test('a hook past ~200 characters is shortened at a clause; what it left out opens the topic file under a label, never a repeated title', () => {
    const hook = `when deploying the billing service ${'and its many dependent workers '.repeat(3)}(see the runbook of 2025). Check the queue first`;
    const { after } = roundTrip(
      input({
        'MEMORY.md': `# Memory\n\n- [Billing deploy](project_billing.md) — ${hook}\n`,
        'project_billing.md':
          '---\nname: Billing deploy\ndescription: How the billing service is deployed safely\ntype: project\n---\n# Billing deploy\n\nDeploy with the runbook.\n\n**Why:** y\n**How to apply:** z\n',
      }),
    );
    const line = body(after, 'MEMORY.md')
      .split('\n')
      .find((l) => l.startsWith('- ['))!;
    expect(line.length).toBeLessThanOrEqual(200);
    expect(line).not.toContain('…');
    expect(line).toMatch(/dependent workers\. Check the queue first$/);
    expect(body(after, 'project_billing.md')).toContain(`---\n\n# Billing deploy\n\nIndex note: ${hook}\n\nDeploy with the runbook.`);
    expect(body(after, 'project_billing.md').match(/# Billing deploy/g)).toHaveLength(1);
  });

  test('111 memories with long Korean hooks keep all 111 pointers in MEMORY.md', () => {
    const words = '배포 전에 반드시 스테이징 서버에서 통합 테스트를 실행하고 결과를 팀 채널에 공유한다'.split(' ');
    const files: Record<string, string> = {};
    const lines = ['# 메모리', ''];
    for (let n = 0; n < 111; n++) {
      const hook = Array.from({ length: 40 }, (_, i) => words[(n + i) % words.length]).join(' ');
      files[`feedback_메모_${n}.md`] =
        `---\nname: 메모 ${n}\ndescription: 메모 ${n}번 규칙: ${words.slice(0, 5).join(' ')}\ntype: feedback\n---\n\n규칙 ${n}.\n\n**Why:** 기록.\n**How to apply:** 확인.\n`;
      lines.push(`- [메모 ${n}](feedback_메모_${n}.md) — ${hook}`, '');
    }
    const { plan, after } = roundTrip(input({ 'MEMORY.md': `${lines.join('\n')}\n`, ...files }));
    expect(plan.before.complete).toBe(false);
    expect(plan.after.complete).toBe(true);
    expect(new Set(links(body(after, 'MEMORY.md')))).toEqual(new Set(Object.keys(files)));
  });

  test('a partial second level keeps feedback first, then the most recently modified', () => {
    const files: Record<string, string> = {};
    const lines: string[] = [];
    for (let n = 0; n < 260; n++) {
      const type = n % 26 === 0 ? 'feedback' : 'project';
      const day = `2026-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;
      files[`${type}_item_${n}.md`] =
        `---\nname: Item ${n}\ndescription: Decision ${n} about the billing rollout and its owners\ntype: ${type}\nmodified: ${day}\n---\nBody ${n}.\n\n**Why:** y\n**How to apply:** z\n`;
      lines.push(`- [Item ${n}](${type}_item_${n}.md) — Decision ${n} about the billing rollout and its owners`);
    }
    const { after } = roundTrip(input({ 'MEMORY.md': `${lines.join('\n')}\n`, ...files }));
    const direct = links(body(after, 'MEMORY.md')).filter((l) => !l.startsWith('index_'));
    expect(direct.filter((l) => l.startsWith('feedback_'))).toHaveLength(10);
    const newest = (l: string) => /modified: (\S+)/.exec(files[l]!)![1]!;
    const directProjects = direct.filter((l) => l.startsWith('project_')).map(newest);
    const left = links(body(after, 'index_project.md')).map(newest);
    expect(directProjects.length).toBeGreaterThan(150);
    expect([...directProjects].sort()[0]! >= [...left].sort().reverse()[0]!).toBe(true);
    expect(body(after, 'MEMORY.md')).toMatch(/^## More memories\n- \[Project memories\]\(index_project\.md\) — \d+ more project memories: Item /m);
  });
});

describe('dates need a trustworthy anchor', () => {
  const project = (text: string) => `---\nname: Release\ndescription: When the release of the mobile app happens\ntype: project\n---\n${text}\n\n**Why:** y\n**How to apply:** z\n`;

  test('only the file time known: the date is reported, not rewritten', () => {
    const plan = planRefactor(
      new Map([['project_release.md', { text: project('The freeze starts next Thursday.'), anchor: ANCHOR, anchorSource: 'file time', dateFacts: { mtimeMs: ANCHOR.getTime() } }]]),
    );
    expect(plan.changes.get('project_release.md')).toBeUndefined();
    expect(plan.warnings.map((w) => w.message)).toContainEqual(expect.stringContaining('relative date "next Thursday" left as written'));
  });

  test('a date in the index section a block came from anchors it; a formula is no date', () => {
    const { plan, after } = roundTrip(
      new Map([
        [
          'MEMORY.md',
          {
            text: '# 项目记忆\n\n> 最后更新：2026-03-04\n\n## 发布\n明天冻结主干。\n\n## Sprint day\nday = today_date − 2026-03-26 + 1 gives the sprint day.\n',
            anchor: ANCHOR,
            anchorSource: 'file time',
            dateFacts: { mtimeMs: ANCHOR.getTime() },
          },
        ],
      ]),
    );
    expect(plan.operations.filter((o) => o.kind === 'rewrite-date')).toEqual([
      { kind: 'rewrite-date', path: 'project_发布.md', from: '明天', to: '2026-03-05', anchor: expect.stringContaining('2026-03-04') },
    ]);
    expect(body(after, 'MEMORY.md')).toMatch(/^# 项目记忆\n\n> 最后更新：2026-03-04\n\n/);
  });
});

describe('verification', () => {
  const files = (index: string) => new Map([['MEMORY.md', index]]);
  const planWith = (changes: Record<string, string | null>, operations: RefactorPlan['operations'] = []): RefactorPlan => ({
    blocks: [],
    operations,
    changes: new Map(Object.entries(changes)),
    dropped: [],
    warnings: [],
    before: { lines: 0, bytes: 0, pointers: 0, inlineLines: 0, complete: true },
    after: { lines: 0, bytes: 0, pointers: 0, inlineLines: 0, complete: true },
  });

  test('a lost clause and a dropped heading are losses; a rewritten date is not', () => {
    const before = files('## Release plan\nThe freeze starts tomorrow, and mobile ships after it.\n');
    const lost = lostWords(before, planWith({ 'MEMORY.md': '# Memory\n', 'project_release.md': 'The freeze starts tomorrow.\n' }));
    expect(lost.flatMap((l) => l.words).sort()).toEqual(['after', 'and', 'it', 'mobile', 'plan', 'release', 'ships']);
    const rewritten = planWith({ 'MEMORY.md': '## Release plan\n', 'project_release.md': 'The freeze starts 2026-02-27, and mobile ships after it.\n' }, [
      { kind: 'rewrite-date', path: 'project_release.md', from: 'tomorrow', to: '2026-02-27', anchor: 'x' },
    ]);
    expect(lostWords(before, rewritten)).toEqual([]);
  });

  test('a line kept in place stays in the index and is reported', () => {
    const plan = planRefactor(input({ 'MEMORY.md': '# Memory\n\n## Notes\nKeep this exactly here.\nMove this one.\n' }), { keepIndexLines: new Set([4]) });
    expect(plan.changes.get('MEMORY.md')).toContain('## Notes\nKeep this exactly here.\n');
    expect(plan.warnings).toContainEqual({ path: 'MEMORY.md:4', message: 'left in the index: moving this line would lose words' });
  });
});
