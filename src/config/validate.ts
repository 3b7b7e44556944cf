import { ConfigError } from '../core/errors.js';
import { fieldProblem, isObject, SECTIONS, type SectionName, type SectionValues, type FieldSpec } from './sections.js';
import { messages } from '../core/messages.js';

export type Severity = 'error' | 'warning' | 'info';
export type RuleSetting = Severity | 'off';

/** What configuration needs to know of a lint rule (the lint engine's Rule satisfies it). */
export interface ConfigurableRule {
  id: string;
  name: string;
  tags: string[];
  /** Options the rule takes, with their defaults (markdownlint's `MD013: { line_length }` style). */
  options?: Record<string, FieldSpec & { default: unknown }>;
}

export interface LintConfig {
  /** Keyed by rule id, rule name or tag; the most specific wins (id/name over tag). */
  rules: Record<string, RuleSetting>;
  /** Rule options, keyed by rule id or name. */
  ruleOptions: Record<string, Record<string, unknown>>;
  /** Globs (relative to the memory directory) of files not to lint. */
  ignore: string[];
  skipIndex: boolean;
}

export type MemdirConfig = LintConfig & { [S in SectionName]: SectionValues<S> };

export const DEFAULT_CONFIG: MemdirConfig = {
  rules: {},
  ruleOptions: {},
  ignore: [],
  skipIndex: false,
  recall: {},
  extract: {},
  session: {},
  docs: {},
  dream: {},
  sync: {},
  guard: {},
  hooks: {},
};

export const SEVERITIES: readonly RuleSetting[] = ['off', 'info', 'warning', 'error'];
const ALIASES: Record<string, RuleSetting> = { warn: 'warning', '0': 'off', '1': 'warning', '2': 'error' };

function severity(value: unknown): RuleSetting | undefined {
  const normalized = typeof value === 'string' || typeof value === 'number' ? (ALIASES[String(value)] ?? value) : value;
  return SEVERITIES.includes(normalized as RuleSetting) ? (normalized as RuleSetting) : undefined;
}

/**
 * Validate a parsed config object (memdir.config.json, or "memdir" in
 * package.json) against `rules`, the lint rules it may name. Pure. Errors
 * name the file and the key path.
 */
export function validateConfig(value: unknown, file: string, rules: readonly ConfigurableRule[]): MemdirConfig {
  const fail = (keyPath: string, problem: string) => new ConfigError(messages.configProblem(file, keyPath, problem));
  if (!isObject(value)) throw fail('(root)', 'must be a JSON object');
  const config: MemdirConfig = structuredClone(DEFAULT_CONFIG);
  const byKey = new Map(
    rules.flatMap(
      (r) =>
        [
          [r.id, r],
          [r.name, r],
        ] as const,
    ),
  );
  const tags = new Set(rules.flatMap((r) => r.tags));

  const ruleEntry = (key: string, entry: unknown) => {
    const rule = byKey.get(key);
    if (!rule && !tags.has(key)) throw fail(`rules.${key}`, 'unknown rule id, name or tag');
    if (!isObject(entry)) {
      const setting = severity(entry);
      if (!setting) throw fail(`rules.${key}`, `must be one of ${SEVERITIES.join(', ')}, or an object of options`);
      config.rules[key] = setting;
      return;
    }
    const options: Record<string, unknown> = {};
    for (const [option, optionValue] of Object.entries(entry)) {
      if (option === 'severity') {
        const setting = severity(optionValue);
        if (!setting) throw fail(`rules.${key}.severity`, `must be one of ${SEVERITIES.join(', ')}`);
        config.rules[key] = setting;
        continue;
      }
      const spec = rule?.options?.[option];
      if (!spec) {
        const known = Object.keys(rule?.options ?? {});
        throw fail(`rules.${key}.${option}`, known.length ? `unknown option (expected severity, ${known.join(', ')})` : 'unknown option (this rule takes only severity)');
      }
      const problem = fieldProblem(spec, optionValue);
      if (problem) throw fail(`rules.${key}.${option}`, problem);
      options[option] = optionValue;
    }
    if (Object.keys(options).length > 0) config.ruleOptions[key] = options;
  };

  for (const [key, entry] of Object.entries(value)) {
    if (key === '$schema') continue;
    if (key === 'rules') {
      if (!isObject(entry)) throw fail('rules', 'must be an object of rule → setting');
      for (const [rule, setting] of Object.entries(entry)) ruleEntry(rule, setting);
    } else if (key === 'ignore') {
      if (!Array.isArray(entry) || entry.some((g) => typeof g !== 'string')) throw fail('ignore', 'must be an array of glob strings');
      config.ignore = entry as string[];
    } else if (key === 'skipIndex') {
      if (typeof entry !== 'boolean') throw fail('skipIndex', 'must be true or false');
      config.skipIndex = entry;
    } else if (key in SECTIONS) {
      const section = key as SectionName;
      if (!isObject(entry)) throw fail(key, 'must be an object');
      const specs: Record<string, FieldSpec> = SECTIONS[section];
      for (const [field, fieldValue] of Object.entries(entry)) {
        const spec = specs[field];
        if (!spec) throw fail(`${key}.${field}`, `unknown key (expected ${Object.keys(specs).join(', ')})`);
        const problem = fieldProblem(spec, fieldValue);
        if (problem) throw fail(`${key}.${field}`, problem);
        (config[section] as Record<string, unknown>)[field] = fieldValue;
      }
    } else {
      throw fail(key, `unknown key (expected rules, ignore, skipIndex, ${Object.keys(SECTIONS).join(', ')})`);
    }
  }
  return config;
}
