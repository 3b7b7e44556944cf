import { isGeneratedLine } from '../../core/generated-text.js';
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

/**
 * A memory that records the user message it came from (`originMessageUuid`, which `memdir extract`
 * writes) says what the user said: it is not asked for a reason the user did not give.
 */
const fromUserStatement = (topic: TopicSource) => {
  const origin = topic.topic.frontmatter?.data.originMessageUuid;
  return typeof origin === 'string' && origin.trim() !== '';
};

// A **Why:** or **How to apply:** line, its label and its sentence.
const REASON_LINE = /^\s*(?:[-*]\s+)?\*\*(Why|How to apply):?\*\*:?\s*(.*?[\p{L}\p{N}].*?)\s*$/iu;

/** Each memory's Why and How to apply sentences, with their line numbers. */
function reasonSentences(topic: TopicSource): Array<{ label: string; sentence: string; line: number; raw: string }> {
  const out: Array<{ label: string; sentence: string; line: number; raw: string }> = [];
  topic.topic.body.split(/\r?\n/).forEach((text, i) => {
    const match = REASON_LINE.exec(text);
    if (match)
      out.push({ label: match[1]!.toLowerCase() === 'why' ? '**Why:**' : '**How to apply:**', sentence: match[2]!.replace(/\s+/g, ' ').toLowerCase(), line: topic.topic.bodyLine + i, raw: text });
  });
  return out;
}

export const whyHow: Rule = {
  id: 'MEM015',
  name: 'why-how',
  description:
    'Feedback memories, and project memories whose name or description states a decision or a rule (not plans, status logs or overviews), carry **Why:** and **How to apply:** so a later session can judge edge cases; a memory that records the user message it came from (`originMessageUuid`, as `memdir extract` writes) is not asked for a reason the user did not give. A **Why:** or **How to apply:** sentence shared word for word by two or more memories, or one of the default sentences older memdir versions wrote, says nothing about its memory and is reported too. The labels count with or without a colon, with a parenthetical, as headings, and in Chinese, Japanese or Korean.',
  severity: 'warning',
  fixable: false,
  tags: ['content'],
  examples: {
    valid: [
      { files: { 'feedback_terse.md': '---\nname: Terse\ndescription: No recap at the end of responses\ntype: feedback\n---\nNo recap.\n\n**Why:** reads diffs.\n**How to apply** — always.\n' } },
      { files: { 'project_status.md': '---\nname: Migration status\ndescription: Where the billing migration stands, table by table\ntype: project\n---\nInvoices moved; payments next.\n' } },
      {
        files: {
          'feedback_no_emojis.md':
            '---\nname: No emojis in commit messages\ndescription: From now on, never use emojis in commit messages\ntype: feedback\noriginSessionId: 5f0c\noriginMessageUuid: 9b2e\n---\nFrom now on, never use emojis in commit messages.\n',
        },
      },
    ],
    invalid: [
      { files: { 'feedback_terse.md': '---\nname: Terse\ndescription: No recap at the end of responses\ntype: feedback\n---\nNo recap.\n' } },
      { files: { 'project_db.md': '---\nname: Database choice\ndescription: We decided on Postgres for the billing service\ntype: project\n---\nPostgres, not MySQL.\n' } },
      {
        files: {
          'feedback_tabs.md':
            '---\nname: Tabs\ndescription: Indent with tabs, not spaces\ntype: feedback\n---\nIndent with tabs.\n\n**Why:** the user asked for it.\n**How to apply:** follow this in every session.\n',
          'feedback_pnpm.md':
            '---\nname: pnpm\ndescription: Install packages with pnpm, never npm\ntype: feedback\n---\nUse pnpm.\n\n**Why:** the user asked for it.\n**How to apply:** follow this in every session.\n',
        },
      },
    ],
  },
  check(model, report) {
    for (const topic of model.topics) {
      if (!needsReasons(topic) || fromUserStatement(topic)) continue;
      const missing = missingWhyHow(topic.fields.type, topic.topic.body);
      if (missing.length === 0) continue;
      report({ file: topic.path, line: topic.topic.bodyLine, column: 1, message: `${topic.fields.type} memory without ${missing.join(' and ')}` });
    }
    // Boilerplate: the same reason in several memories tells the agent nothing about any of them.
    // Counted by memory name: two files of one memory (a copy, which MEM018 reports) are not two memories sharing a reason.
    const holders = new Map<string, Set<string>>();
    const sentences = model.topics.map((topic) => ({ topic, reasons: reasonSentences(topic) }));
    for (const { topic, reasons } of sentences) {
      const memory = topic.fields.name?.trim().toLowerCase() || topic.path;
      for (const r of reasons) holders.set(`${r.label} ${r.sentence}`, (holders.get(`${r.label} ${r.sentence}`) ?? new Set()).add(memory));
    }
    for (const { topic, reasons } of sentences) {
      for (const r of reasons) {
        const others = (holders.get(`${r.label} ${r.sentence}`)?.size ?? 1) - 1;
        if (others > 0)
          report({
            file: topic.path,
            line: r.line,
            column: 1,
            message: `${r.label} sentence shared word for word with ${others} other ${others === 1 ? 'memory' : 'memories'}: say this memory's own reason, or drop the line`,
          });
        else if (isGeneratedLine(r.raw))
          report({ file: topic.path, line: r.line, column: 1, message: `${r.label} sentence is a default memdir once wrote into every memory: say this memory's own reason, or drop the line` });
      }
    }
  },
};
