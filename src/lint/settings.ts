import type { LintConfig, RuleSetting } from '../config/validate.js';
import type { Rule } from './types.js';

/** The severity a rule runs at under this config, or 'off'. */
export function ruleSetting(rule: Rule, config: LintConfig): RuleSetting {
  const direct = config.rules[rule.id] ?? config.rules[rule.name];
  if (direct) return direct;
  for (const tag of rule.tags) {
    const byTag = config.rules[tag];
    if (byTag) return byTag;
  }
  return rule.severity;
}

/** A rule's options: its defaults, overridden by what the config sets under its name, then its id. */
export function ruleOptions(rule: Rule, config: LintConfig): Record<string, unknown> {
  const defaults = Object.fromEntries(Object.entries(rule.options ?? {}).map(([key, spec]) => [key, spec.default]));
  return { ...defaults, ...config.ruleOptions[rule.name], ...config.ruleOptions[rule.id] };
}
