import { INDEX_LINE_REPORT, TOPIC_MAX_LINES } from '../core/limits.js';
import { NEAR_DUPLICATE_THRESHOLD } from '../core/similarity.js';
import type { ConfigurableRule } from './validate.js';

/**
 * The options the lint rules take, by rule id: a config file sets them, and the rule reads them.
 * The rules take their `options` from here, so the two cannot disagree.
 */
export const RULE_OPTIONS = {
  MEM004: { max: { type: 'integer', minimum: 1, default: INDEX_LINE_REPORT, description: 'longest index line, in characters' } },
  MEM014: { minLength: { type: 'integer', minimum: 0, default: 20, description: 'shortest specific description, in characters' } },
  MEM016: { anchorDate: { type: 'string', default: '', description: 'anchor (YYYY-MM-DD) for files with no date of their own; `lint --anchor-date` sets it' } },
  MEM017: { max: { type: 'integer', minimum: 1, default: TOPIC_MAX_LINES, description: 'most lines in a topic file' } },
  MEM018: { threshold: { type: 'number', minimum: 0, maximum: 1, default: NEAR_DUPLICATE_THRESHOLD, description: 'share of words two files must have in common to be reported' } },
} as const satisfies Record<string, NonNullable<ConfigurableRule['options']>>;

/**
 * Every lint rule as a config file names it: id, name, tags and options. Commands other than lint
 * validate a config's `rules` keys against this list without loading the rules themselves;
 * test/unit/rule-catalog.test.ts checks that it matches src/lint/rules/ exactly.
 */
export const RULE_CATALOG: readonly ConfigurableRule[] = [
  { id: 'MEM001', name: 'index-missing', tags: ['index'] },
  { id: 'MEM002', name: 'index-max-lines', tags: ['index', 'limits'] },
  { id: 'MEM003', name: 'index-max-bytes', tags: ['index', 'limits'] },
  { id: 'MEM004', name: 'index-line-length', tags: ['index', 'style'], options: RULE_OPTIONS.MEM004 },
  { id: 'MEM005', name: 'index-pointers-only', tags: ['index', 'structure'] },
  { id: 'MEM006', name: 'dead-pointer', tags: ['index', 'pointers'] },
  { id: 'MEM007', name: 'pointer-escapes', tags: ['index', 'pointers', 'safety'] },
  { id: 'MEM008', name: 'unindexed-topic', tags: ['index', 'pointers'] },
  { id: 'MEM009', name: 'duplicate-pointer', tags: ['index', 'pointers'] },
  { id: 'MEM010', name: 'frontmatter-invalid', tags: ['frontmatter'] },
  { id: 'MEM011', name: 'frontmatter-unquoted', tags: ['frontmatter'] },
  { id: 'MEM012', name: 'missing-field', tags: ['frontmatter'] },
  { id: 'MEM013', name: 'invalid-type', tags: ['frontmatter'] },
  { id: 'MEM014', name: 'vague-description', tags: ['frontmatter', 'recall'], options: RULE_OPTIONS.MEM014 },
  { id: 'MEM015', name: 'why-how', tags: ['content'] },
  { id: 'MEM016', name: 'relative-date', tags: ['content', 'dates'], options: RULE_OPTIONS.MEM016 },
  { id: 'MEM017', name: 'topic-max-lines', tags: ['content', 'limits'], options: RULE_OPTIONS.MEM017 },
  { id: 'MEM018', name: 'near-duplicate', tags: ['content', 'duplicates'], options: RULE_OPTIONS.MEM018 },
  { id: 'MEM019', name: 'derivable-content', tags: ['content'] },
  { id: 'MEM020', name: 'secret', tags: ['safety'] },
  { id: 'MEM021', name: 'duplicate-frontmatter', tags: ['frontmatter'] },
  { id: 'MEM022', name: 'index-mismatch', tags: ['index', 'pointers'] },
  { id: 'MEM023', name: 'unreadable-file', tags: ['safety'] },
  { id: 'MEM024', name: 'personal-data', tags: ['safety', 'content'] },
  { id: 'MEM025', name: 'stale-marker', tags: ['content', 'index'] },
  { id: 'MEM026', name: 'poisoning', tags: ['safety'] },
];
