import { describe, expect, test } from 'vitest';
import { fittedHook } from '../../src/core/memory-index.js';
import { shortenHook } from '../../src/core/shorten-hook.js';
import { rulesStillVisible } from '../../src/core/standing-rules.js';

describe('shortening a hook', () => {
  test('a hook that fits is left as written', () => {
    expect(shortenHook('this repo only; other repos are READ-ONLY (separate instance owns them)', 200)).toBe('this repo only; other repos are READ-ONLY (separate instance owns them)');
  });

  test('the parenthetical goes before the rule', () => {
    const hook = 'this repo is the only one we edit; other repos are READ-ONLY (separate instance owns them)';
    expect(shortenHook(hook, 70)).toBe('this repo is the only one we edit; other repos are READ-ONLY');
  });

  test('examples and dates go, then whole clauses from the end; the rule stays whole', () => {
    const hook = "Session log analysis, e.g. the 2026-03-01 run — don't ask the user to recall — diff the analytics CSV against git. Notes kept since 2026-02-11 in the log.";
    const short = shortenHook(hook, 90);
    expect(short).toBe("Session log analysis — don't ask the user to recall — diff the analytics CSV against git.");
    expect(rulesStillVisible(hook, short).lost).toEqual([]);
  });

  test('rules longer than the room stay whole; only the other clauses go', () => {
    const hook = 'Deploy notes. Never deploy on Fridays without the on-call engineer approving in the channel. Always run the smoke tests first. Old history here.';
    const short = shortenHook(hook, 40);
    expect(short).toBe('Never deploy on Fridays without the on-call engineer approving in the channel. Always run the smoke tests first.');
  });

  test('a repeat of the title goes; a hook with no rule keeps its first clause, cut at a comma', () => {
    expect(shortenHook('Billing deploy: how the billing service is deployed, with its workers and queues and the dashboards', 60, 'Billing deploy')).toBe('how the billing service is deployed');
    expect(shortenHook('one long clause without any boundary at all that goes on and on past the room', 40)).toMatch(/^one long clause without any boundary…$/);
  });

  test("a parenthetical's full stop stays with the sentence it ends", () => {
    const hook = 'Every session must write a handoff file (`.claude/plans/{date}-handoff.md`). Not a summary — a context injection. Separate from the task chain.';
    expect(shortenHook(hook, 50)).toBe('Every session must write a handoff file.');
  });

  test('CJK sentence ends are clause boundaries', () => {
    expect(shortenHook('发布流程说明。不要在周五发布。历史记录在这里很长很长很长很长很长很长很长。', 20)).toBe('发布流程说明。不要在周五发布。');
  });

  test("a new pointer's hook fits in 150 characters by dropping clauses before its rule", () => {
    const description = 'Deploy notes for the billing service and its workers, kept since the migration to the new cluster last spring. Never deploy on Fridays.';
    const hook = fittedHook('Billing deploy', 'project_billing.md', description);
    expect(hook).toBe('Never deploy on Fridays.');
    expect(`- [Billing deploy](project_billing.md) — ${hook}`.length).toBeLessThanOrEqual(150);
  });
});
