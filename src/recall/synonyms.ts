import { tokenize } from '../core/tokenize.js';

/**
 * Groups of words that stand for the same idea in developer conversations.
 * A query term pulls in the other members at a reduced weight, so "deployment"
 * finds a memory about "CI/CD release". Kept short and general on purpose.
 */
const GROUPS = [
  'deploy deployment release ship rollout launch publish ci cd pipeline',
  'merge pr pull request branch rebase',
  'freeze lockdown moratorium hold',
  'bug defect issue error failure crash regression',
  'test tests testing spec unit integration e2e',
  'database db postgres mysql sqlite schema migration',
  'mock stub fake',
  'summary recap summarize',
  'reply response answer',
  'deadline due date schedule',
  'dashboard board grafana metrics monitoring',
  'ticket tracker linear jira issue',
  'docs documentation wiki readme',
  'auth authentication login credential token',
  'api endpoint service',
  'preference prefer likes wants style',
  'review code-review feedback',
  'mobile ios android app',
  'frontend front-end ui react web',
  'backend back-end server',
  'performance latency slow speed',
  'security secret vulnerability',
  'on-call oncall incident pager outage',
  '发布 上线 部署',
  '合并 分支',
  '冻结 封版',
  '测试 单元测试',
  '数据库 迁移',
];

/** Two tables built on first use: tokenizing the CJK groups starts Intl.Segmenter, slow to start, which an English prompt never needs. */
const tables = new Map<boolean, Map<string, Set<string>>>();
const nonAscii = (text: string) => /[^\x00-\x7f]/.test(text);

function table(ofNonAscii: boolean): Map<string, Set<string>> {
  let expansion = tables.get(ofNonAscii);
  if (expansion) return expansion;
  expansion = new Map();
  for (const group of GROUPS.filter((g) => nonAscii(g) === ofNonAscii)) {
    const terms = [...new Set(group.split(' ').flatMap((w) => tokenize(w)))];
    for (const term of terms) {
      const set = expansion.get(term) ?? new Set<string>();
      for (const other of terms) if (other !== term) set.add(other);
      expansion.set(term, set);
    }
  }
  tables.set(ofNonAscii, expansion);
  return expansion;
}

/** Related terms for a query term (already tokenized), not including the term itself. */
export function related(term: string): string[] {
  return [...(table(nonAscii(term)).get(term) ?? [])];
}
