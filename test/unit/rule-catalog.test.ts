import { expect, test } from 'vitest';
import { RULE_CATALOG } from '../../src/config/rule-catalog.js';
import { validateConfig, type ConfigurableRule } from '../../src/config/validate.js';
import { RULES } from '../../src/lint/rules/index.js';

const configFacing = (rules: readonly ConfigurableRule[]) => rules.map(({ id, name, tags, options }) => ({ id, name, tags, options }));

test('the rule catalog is every lint rule, in order, with its id, name, tags and options', () => {
  expect(configFacing(RULE_CATALOG)).toEqual(configFacing(RULES));
});

test('a config validated against the catalog is validated as against the rules', () => {
  const configs: unknown[] = [
    { rules: { MEM004: { max: 120 }, style: 'warn', 'dead-pointer': 2, 'near-duplicate': { threshold: 0.8, severity: 'error' } } },
    { rules: { 'NO-SUCH-RULE': 'off' } },
    { rules: { MEM004: { width: 3 } } },
    { rules: { MEM018: { threshold: 2 } } },
    { rules: { MEM001: { max: 1 } } },
  ];
  const outcome = (rules: readonly ConfigurableRule[], config: unknown) => {
    try {
      return validateConfig(config, 'memdir.config.json', rules);
    } catch (error) {
      return (error as Error).message;
    }
  };
  for (const config of configs) expect(outcome(RULE_CATALOG, config)).toEqual(outcome(RULES, config));
  expect(outcome(RULE_CATALOG, configs[1])).toMatch(/rules\.NO-SUCH-RULE: unknown rule id, name or tag/);
});
