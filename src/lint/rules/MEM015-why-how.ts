import { missingWhyHow } from '../../core/taxonomy.js';
import type { TopicSource } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

// A decision or a rule, said in so many words: "we decided", "Decision:", "always…", "never…", "must".
const DECISION =
  /\b(?:decid(?:e|ed|es|ing)|decisions?|chose|chosen|agreed|policy|rules?|conventions?|must(?:n't| not)?|never|always|do not|don't|instead of)\b|决定|决策|规则|约定|必须|不要|禁止|決定|ルール|必ず|결정|규칙|반드시|금지/i;
// A record of work: status, plans, logs, overviews. They mention decisions without being one.
const RECORD =
  /\b(?:shipped|merged|deployed|completed?|closed|resolved|status|plans?|progress|sessions?|done|in progress|next|snapshot|overview|architecture|stack|toolchain|audit|remediation|backfill)\b|进度|状态|计划|架构|概览|総覧|進捗|현황|계획/i;

/**
 * Feedback is a rule by nature. A project memory needs the reasons only when it states a
 * decision or a rule (its name or description says so) and is not a record of work:
 * plans, status logs, overviews and reference notes are not.
 */
function needsReasons(topic: TopicSource): boolean {
  if (topic.fields.type === 'feedback') return true;
  if (topic.fields.type !== 'project') return false;
  const summary = `${topic.fields.name ?? ''}\n${topic.fields.description ?? ''}`;
  return DECISION.test(summary) && !RECORD.test(summary);
}

export const whyHow: Rule = {
  id: 'MEM015',
  name: 'why-how',
  description:
    'Feedback memories, and project memories whose name or description states a decision or a rule (not plans, status logs or overviews), carry **Why:** and **How to apply:** so a later session can judge edge cases. The labels count with or without a colon, with a parenthetical, as headings, and in Chinese, Japanese or Korean.',
  severity: 'warning',
  fixable: false,
  tags: ['content'],
  examples: {
    valid: [
      { files: { 'feedback_terse.md': '---\nname: Terse\ndescription: No recap at the end of responses\ntype: feedback\n---\nNo recap.\n\n**Why:** reads diffs.\n**How to apply** — always.\n' } },
      { files: { 'project_status.md': '---\nname: Migration status\ndescription: Where the billing migration stands, table by table\ntype: project\n---\nInvoices moved; payments next.\n' } },
    ],
    invalid: [
      { files: { 'feedback_terse.md': '---\nname: Terse\ndescription: No recap at the end of responses\ntype: feedback\n---\nNo recap.\n' } },
      { files: { 'project_db.md': '---\nname: Database choice\ndescription: We decided on Postgres for the billing service\ntype: project\n---\nPostgres, not MySQL.\n' } },
    ],
  },
  check(model, report) {
    for (const topic of model.topics) {
      if (!needsReasons(topic)) continue;
      const missing = missingWhyHow(topic.fields.type, topic.topic.body);
      if (missing.length === 0) continue;
      report({ file: topic.path, line: topic.topic.bodyLine, column: 1, message: `${topic.fields.type} memory without ${missing.join(' and ')}` });
    }
  },
};
