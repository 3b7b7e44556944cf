import { GITLEAKS_GLOBAL_ALLOW, GITLEAKS_RULES, type GeneratedAllow, type GeneratedRule } from './gitleaks-rules.js';
import { type RunBounds, runBounds } from './secret-gate.js';

/**
 * gitleaks' generated rule table, and for each rule what the cheap gate needs (its keywords and run
 * bounds, src/core/secret-gate.ts). In the CLI's CommonJS bundles (tsup.config.ts) this module is
 * replaced by one that holds the gate precomputed (memdir's own rules' too) and reads the table from `dist/gitleaks-rules.json`
 * on the first call of `gitleaksTable()`: most processes print nothing a rule could match, so they
 * never parse the table (bench `startup`, `hooks`).
 */
export interface GitleaksTable {
  rules: readonly GeneratedRule[];
  globalAllow: readonly GeneratedAllow[];
}

/** One rule as the gate sees it: it can match only where one of its keywords occurs and the text has runs this long. */
export interface GateEntry {
  keywords: readonly string[];
  bounds: RunBounds;
}

export function gitleaksTable(): GitleaksTable {
  return { rules: GITLEAKS_RULES, globalAllow: GITLEAKS_GLOBAL_ALLOW };
}

let gate: GateEntry[] | undefined;

/** The gate entry of each gitleaks rule, in table order. */
export function gitleaksGate(): readonly GateEntry[] {
  gate ??= GITLEAKS_RULES.map((rule) => ({ keywords: rule.keywords, bounds: runBounds(rule.source, rule.flags) }));
  return gate;
}

/** memdir's own rules' gate entries where they were computed at build (the CLI's bundles); here, computed on first use. */
export function precomputedMemdirGate(): readonly GateEntry[] | undefined {
  return undefined;
}
