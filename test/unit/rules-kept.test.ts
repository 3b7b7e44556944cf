/**
 * Restructuring never takes a standing rule out of the agent's view: on every vendored real directory, each
 * rule on a pointer line of the loaded index keeps its words in the loaded index after refactor and after
 * `lint --fix`. MEMDIR_RULES_REPORT=1 prints the corpus figures (rule lines that lost words, all and pointers).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { isStandingRule, rulesStillVisible } from '../../src/core/standing-rules.js';
import { loadIndex } from '../../src/core/load-model.js';
import { fixDirectory } from '../../src/lint/engine.js';
import { type PlanInputFile, planRefactorKeepingWords } from '../../src/refactor/plan.js';
import { fixtureMemoryDirs } from '../helpers/fixtures.js';
import { repoRoot } from '../helpers/run-cli.js';

const ANCHOR = new Date(2026, 1, 26, 12);
const real = path.join(repoRoot, 'test/fixtures/real');

function corpus(): Array<[string, string]> {
  const dirs = fs
    .readdirSync(real, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(real, e.name, 'MEMORY.md')))
    .map((e): [string, string] => [`real/${e.name}`, path.join(real, e.name)]);
  return [...dirs, ...fixtureMemoryDirs().map((d): [string, string] => [`shared/${path.basename(path.dirname(path.dirname(d)))}`, d])];
}

function readTexts(dir: string): Record<string, string> {
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
  return Object.fromEntries(files.map((f) => [f.split(path.sep).join('/'), fs.readFileSync(path.join(dir, f), 'utf8')]));
}

const loaded = (index: string | null | undefined) => loadIndex(index ?? '').loaded;

/** The standing-rule lines of a loaded index whose words are no longer all in `after`. */
function lostRuleLines(before: string, after: string, pointersOnly: boolean): string[] {
  return before
    .split('\n')
    .filter((line) => isStandingRule(line) && (!pointersOnly || /^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]*\]\(/.test(line)))
    .filter((line) => rulesStillVisible(line, after).lost.length > 0);
}

const totals = { ruleLines: 0, pointerRuleLines: 0, refactor: { lost: 0, pointerLost: 0 }, fix: { lost: 0, pointerLost: 0 } };

afterAll(() => {
  if (process.env.MEMDIR_RULES_REPORT) process.stderr.write(`standing rules kept: ${JSON.stringify(totals)}\n`);
});

describe.each(corpus())('%s', (_name, dir) => {
  const texts = readTexts(dir);
  const before = loaded(texts['MEMORY.md']);
  const count = (what: 'refactor' | 'fix', after: string) => {
    totals[what].lost += lostRuleLines(before, after, false).length;
    totals[what].pointerLost += lostRuleLines(before, after, true).length;
    return lostRuleLines(before, after, true);
  };
  totals.ruleLines += before.split('\n').filter(isStandingRule).length;
  totals.pointerRuleLines += lostRuleLines(before, '', true).length;

  test('refactor keeps every rule of a pointer line loaded', () => {
    const input = new Map<string, PlanInputFile>(Object.entries(texts).map(([file, text]) => [file, { text, anchor: ANCHOR, anchorSource: 'test' }]));
    const { plan } = planRefactorKeepingWords(input);
    expect(count('refactor', loaded(plan.changes.has('MEMORY.md') ? plan.changes.get('MEMORY.md') : texts['MEMORY.md']))).toEqual([]);
  });

  test('lint --fix keeps every rule of a pointer line loaded', () => {
    const fixed = fixDirectory(rawDirectory(dir, texts), DEFAULT_CONFIG);
    expect(count('fix', loaded(fixed.raw.files.get('MEMORY.md')?.text))).toEqual([]);
  });
});

const file = (name: string, type: string, body = `What ${name} says.`) => `---\nname: ${name}\ndescription: ${name} for the team\ntype: ${type}\n---\n\n${body}\n`;
const planned = (files: Record<string, string>) => {
  const input = new Map<string, PlanInputFile>(Object.entries(files).map(([f, text]) => [f, { text, anchor: ANCHOR, anchorSource: 'test' }]));
  const { plan } = planRefactorKeepingWords(input);
  return { plan, index: plan.changes.get('MEMORY.md') ?? files['MEMORY.md']! };
};

describe('refactor fixtures', () => {
  test('a 47-line index whose rule sits after character 150: the line is left whole', () => {
    const rule =
      '- [Workspace](project_workspace.md) — the monorepo under ~/src/app is the one this instance edits, with its packages and its deploy scripts; other repos are READ-ONLY (separate instance owns them)';
    expect(rule.indexOf('READ-ONLY')).toBeGreaterThan(150);
    const files: Record<string, string> = { 'project_workspace.md': file('Workspace', 'project') };
    const lines = ['# Memory', '', rule];
    for (let i = 0; i < 44; i++) {
      lines.push(`- [Note ${i}](project_note_${i}.md) — note number ${i} about the build`);
      files[`project_note_${i}.md`] = file(`Note ${i}`, 'project');
    }
    files['MEMORY.md'] = `${lines.join('\n')}\n`;
    const { index } = planned(files);
    expect(index.split('\n')).toContain(rule);
  });

  test('a line over 200 characters is shortened at its clauses; its rule survives whole', () => {
    const line =
      "- [Analytics](feedback_analytics.md) — Weekly analytics review (dashboards in Looker, e.g. the retention board) as of 2026-01-12. Don't ask the user to recall numbers — diff the analytics CSV against git. Old notes on the board layout and colours.";
    expect(line.length).toBeGreaterThan(200);
    const { plan, index } = planned({ 'MEMORY.md': `# Memory\n\n${line}\n`, 'feedback_analytics.md': file('Analytics', 'feedback') });
    const after = index.split('\n').find((l) => l.includes('(feedback_analytics.md)'))!;
    expect(after.length).toBeLessThanOrEqual(200);
    expect(after).not.toMatch(/…/);
    expect(after).toContain("Don't ask the user to recall numbers — diff the analytics CSV against git.");
    expect(rulesStillVisible(line, after).lost).toEqual([]);
    // What the line left out opens the topic file under a plain label, not a heading repeating the name.
    const topic = plan.changes.get('feedback_analytics.md')!;
    expect(topic).toContain('Index note: Weekly analytics review (dashboards in Looker');
    expect(topic).not.toMatch(/^# Analytics$/m);
  });

  test('an "always apply" section in an over-limit index stays loaded; history is demoted first, each with its reason', () => {
    const files: Record<string, string> = {};
    const lines = ['# Memory', '', '## Behaviour rules (always apply)'];
    for (let i = 0; i < 5; i++) {
      lines.push(`- [Rule ${i}](project_rule_${i}.md) — check ${i} before each release`);
      files[`project_rule_${i}.md`] = file(`Rule ${i}`, 'project');
    }
    for (let s = 0; s < 70; s++) {
      lines.push('', `## Sprint ${s} history`);
      for (let i = 0; i < 3; i++) {
        lines.push(`- [Sprint ${s}.${i}](project_sprint_${s}_${i}.md) — what shipped in sprint ${s}, part ${i}`);
        files[`project_sprint_${s}_${i}.md`] = file(`Sprint ${s}.${i}`, 'project');
      }
    }
    files['MEMORY.md'] = `${lines.join('\n')}\n`;
    expect(loadIndex(files['MEMORY.md']).wasLineTruncated).toBe(true);
    const { plan, index } = planned(files);
    const loadedIndex = loaded(index);
    expect(rulesStillVisible(loaded(files['MEMORY.md']), loadedIndex).lost).toEqual([]);
    expect(loadedIndex).toContain('## Behaviour rules (always apply)');
    for (let i = 0; i < 5; i++) expect(loadedIndex).toContain(`(project_rule_${i}.md)`);
    const demoted = plan.operations.filter((o) => o.kind === 'demote');
    expect(demoted.length).toBeGreaterThan(0);
    expect(demoted.every((o) => o.path.startsWith('project_sprint_') && o.reason.includes('standing rules stay in it'))).toBe(true);
    // Blank lines went before any pointer did.
    expect(index).not.toMatch(/\n\n/);
  });

  test('blank lines and one-pointer sections give way before any hook is shortened or pointer demoted', () => {
    const files: Record<string, string> = {};
    const lines = ['# Memory', '', '## History'];
    for (let i = 0; i < 180; i++) {
      lines.push(`- [Entry ${i}](project_entry_${i}.md) — what entry ${i} recorded about the release`);
      files[`project_entry_${i}.md`] = file(`Entry ${i}`, 'project');
    }
    for (let i = 0; i < 12; i++) {
      lines.push('', `## Topic ${i}`, `- [Lone ${i}](project_lone_${i}.md) — the only note on topic ${i}`);
      files[`project_lone_${i}.md`] = file(`Lone ${i}`, 'project');
    }
    files['MEMORY.md'] = `${lines.join('\n')}\n`;
    const { plan, index } = planned(files);
    expect(plan.after.complete).toBe(true);
    expect(plan.operations.filter((o) => o.kind === 'demote')).toEqual([]);
    for (const line of lines.filter((l) => l.startsWith('- ['))) expect(index).toContain(line);
    expect(index).not.toContain('## Topic 0');
    expect(plan.changes.get('project_lone_0.md')).toContain('Index section: Topic 0');
  });
});

describe('refactor of a table-style index', () => {
  const index = `# Memory

| Topic | File | Notes |
|---|---|---|
| Workspace | [project_workspace.md](project_workspace.md) | this repo only; other repos are READ-ONLY (separate instance owns them) |
| [Deploys](feedback_deploy.md) | never deploy on Fridays | |
| History | [project_history.md](project_history.md) | what we shipped in March |
`;
  const files = {
    'MEMORY.md': index,
    'project_workspace.md': file('Workspace', 'project'),
    'feedback_deploy.md': file('Deploys', 'feedback'),
    'project_history.md': file('History', 'project'),
  };

  test('each row becomes its pointer, its cells the hook; every rule stays loaded, the header is reported', () => {
    const { plan, index: after } = planned(files);
    expect(after).toContain('- [project_workspace.md](project_workspace.md) — Workspace — this repo only; other repos are READ-ONLY (separate instance owns them)');
    expect(after).toContain('- [Deploys](feedback_deploy.md) — never deploy on Fridays');
    expect(after).not.toContain('|');
    expect(rulesStillVisible(loaded(index), loaded(after)).lost).toEqual([]);
    expect(plan.dropped.map((d) => d.text)).toEqual(['| Topic | File | Notes |', '|---|---|---|']);
    // No topic file is made of the table.
    expect([...plan.changes.keys()].sort()).toEqual(['MEMORY.md']);
  });
});

describe('lint --fix fixtures', () => {
  test('a dead pointer that states a rule is not dropped; one that does not is', () => {
    const index = '# Memory\n\n- [Push](feedback_push.md) — never push to main\n- [Gone](project_gone.md) — an old plan\n';
    const fixed = fixDirectory(rawDirectory('/mem', { 'MEMORY.md': index }), DEFAULT_CONFIG);
    expect(fixed.raw.files.get('MEMORY.md')!.text).toBe('# Memory\n\n- [Push](feedback_push.md) — never push to main\n');
    const refused = fixed.findings.find((f) => f.ruleId === 'MEM006')!;
    expect(refused.fix).toBeUndefined();
    expect(refused.message).toContain('not fixed: the fix would take a standing rule out of what the agent loads');
  });

  test('a pointer added to a full index does not push a rule past line 200', () => {
    const lines = ['# Memory', '## Project'];
    const files: Record<string, string> = {};
    for (let i = 0; i < 196; i++) {
      lines.push(`- [Item ${i}](project_item_${i}.md) — item ${i}`);
      files[`project_item_${i}.md`] = file(`Item ${i}`, 'project');
    }
    lines.push('## Feedback', '- [Push](feedback_push.md) — never push to main');
    files['feedback_push.md'] = file('Push', 'feedback');
    files['project_new.md'] = file('New', 'project');
    files['MEMORY.md'] = `${lines.join('\n')}\n`;
    expect(lines).toHaveLength(200);
    const fixed = fixDirectory(rawDirectory('/mem', files), DEFAULT_CONFIG);
    expect(loaded(fixed.raw.files.get('MEMORY.md')!.text)).toContain('never push to main');
    expect(fixed.findings.find((f) => f.ruleId === 'MEM008' && f.file === 'project_new.md')?.message).toContain('not fixed');
  });
});
