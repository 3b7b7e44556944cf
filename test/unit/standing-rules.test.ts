import { describe, expect, test } from 'vitest';
import { isStandingRule, rulesStillVisible, standingRules } from '../../src/core/standing-rules.js';

describe('standing rules', () => {
  test('a pointer whose rule sits after its topic', () => {
    const line = '- [Workspace](project_workspace.md) — this repo is the only one we edit; other repos are READ-ONLY (separate instance owns them)';
    expect(standingRules(line).map((r) => r.clause)).toEqual(['this repo is the only one we edit', 'other repos are READ-ONLY']);
  });

  test('rules in Korean, Chinese and Japanese; a plain fact is none', () => {
    expect(isStandingRule('- 절대 main에 직접 푸시하지 마')).toBe(true);
    expect(isStandingRule('- [生成文件](a.md) — 不要修改生成的文件')).toBe(true);
    expect(isStandingRule('- 本番には必ずタグを付ける')).toBe(true);
    expect(isStandingRule('- [Linear](reference_linear.md) — bugs are tracked in the INGEST project')).toBe(false);
  });

  test('a rule whose words left the loaded text is counted as lost; one that moved is not', () => {
    const before = "- [A](a.md) — don't ask the user to recall — diff the analytics CSV against git\n- [B](b.md) — never push to main";
    const after = "- [B](b.md) — never push to main\n- [A](a.md) — from prior session's log…";
    const seen = rulesStillVisible(before, after);
    expect(seen.before).toBe(2);
    expect(seen.after).toBe(1);
    expect(seen.lost[0]!.clause).toBe("don't ask the user to recall");
    expect(rulesStillVisible(before, `${before.split('\n')[1]}\n- [A](a.md) — don't ask the user to recall; diff the analytics CSV against git`).after).toBe(2);
  });
});
