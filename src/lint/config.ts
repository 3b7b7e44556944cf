import { ConfigError } from '../core/errors.js';
import type { Rule, Severity } from './types.js';

export type RuleSetting = Severity | 'off';

export interface LintConfig {
  /** Keyed by rule id, rule name or tag; the most specific wins (id/name over tag). */
  rules: Record<string, RuleSetting>;
  /** Globs (relative to the memory directory) of files not to lint. */
  ignore: string[];
  skipIndex: boolean;
}

export const DEFAULT_CONFIG: LintConfig = { rules: {}, ignore: [], skipIndex: false };

const SETTINGS: readonly RuleSetting[] = ['off', 'info', 'warning', 'error'];
const ALIASES: Record<string, RuleSetting> = { warn: 'warning', '0': 'off', '1': 'warning', '2': 'error' };

/**
 * Validate a parsed config object (memdir.config.json, or "memdir" in
 * package.json). Errors name the file and the key path.
 */
export function validateConfig(value: unknown, file: string, rules: readonly Rule[]): LintConfig {
  const fail = (keyPath: string, problem: string) => new ConfigError(`${file}: ${keyPath}: ${problem}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('(root)', 'must be a JSON object');
  const known = new Set(rules.flatMap((r) => [r.id, r.name, ...r.tags]));
  const config: LintConfig = { rules: {}, ignore: [], skipIndex: false };
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'rules') {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw fail('rules', 'must be an object of rule → setting');
      for (const [rule, setting] of Object.entries(entry)) {
        if (!known.has(rule)) throw fail(`rules.${rule}`, 'unknown rule id, name or tag');
        const normalized = typeof setting === 'string' || typeof setting === 'number' ? (ALIASES[String(setting)] ?? setting) : setting;
        if (!SETTINGS.includes(normalized as RuleSetting)) throw fail(`rules.${rule}`, `must be one of ${SETTINGS.join(', ')}`);
        config.rules[rule] = normalized as RuleSetting;
      }
    } else if (key === 'ignore') {
      if (!Array.isArray(entry) || entry.some((g) => typeof g !== 'string')) throw fail('ignore', 'must be an array of glob strings');
      config.ignore = entry as string[];
    } else if (key === 'skipIndex') {
      if (typeof entry !== 'boolean') throw fail('skipIndex', 'must be true or false');
      config.skipIndex = entry;
    } else if (key !== '$schema') {
      throw fail(key, 'unknown key (expected rules, ignore, skipIndex)');
    }
  }
  return config;
}

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
