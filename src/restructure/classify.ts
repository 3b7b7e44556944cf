import { classifyPointerTarget } from '../core/memory-index.js';
import { shortenHook } from '../core/shorten-hook.js';
import type { MemoryType } from '../core/taxonomy.js';

/** Signals for each memory type, scored over a block of text and its heading. */
const SIGNALS: Record<MemoryType, RegExp[]> = {
  user: [/\b(?:i am|i'm|user is|user's role|my role|role:|background|expertise|years of|works? (?:on|at|as))\b/i, /我是|用户是|背景/],
  feedback: [/\b(?:don't|do not|never|always|avoid|prefer|instead of|should(?:n't)?|must(?:n't)?|please|rule|stop|remember to)\b/i, /\*\*why:?\*\*/i, /不要|永远|总是|必须|记住/],
  project: [
    /\b(?:deadline|release|sprint|milestone|decision|decided|migration|freeze|launch|status|blocked|todo|roadmap|q[1-4]|due|plan(?:ned)?|session|shipped)\b/i,
    /\b\d{4}-\d{2}-\d{2}\b/,
    /发布|截止|计划|决定|冻结/,
  ],
  reference: [/https?:\/\//i, /\b(?:dashboard|docs?|wiki|runbook|ticket|jira|linear|confluence|notion|channel|grafana|sentry|url|link|located|see also)\b/i, /文档|链接|看板/],
};

const HEADING_HINTS: Array<[RegExp, MemoryType]> = [
  [/\b(?:about me|user|profile|who i am|background)\b|用户/i, 'user'],
  [/\b(?:feedback|preferences?|rules?|conventions?|style|guidelines?|do'?s|don'?ts|lessons?|gotchas?|pitfalls?|traps?)\b|反馈|规则/i, 'feedback'],
  [/\b(?:references?|links?|resources?|dashboards?|docs?|tools?)\b|参考|链接/i, 'reference'],
  [/\b(?:projects?|status|decisions?|roadmap|timeline|sessions?|plans?|deadlines?)\b|项目|进展/i, 'project'],
];

/** The memory type a block of moved content most likely is (project when nothing says otherwise). */
export function inferType(text: string, heading = ''): MemoryType {
  for (const [pattern, type] of HEADING_HINTS) if (pattern.test(heading)) return type;
  let best: MemoryType = 'project';
  let bestScore = 0;
  for (const [type, patterns] of Object.entries(SIGNALS) as Array<[MemoryType, RegExp[]]>) {
    const score = patterns.reduce((sum, p) => sum + (text.match(new RegExp(p.source, `${p.flags.replace('g', '')}g`))?.length ?? 0), 0);
    if (score > bestScore) {
      best = type;
      bestScore = score;
    }
  }
  return best;
}

/** Markdown decoration stripped, whitespace collapsed: text for names and descriptions. */
export function plainText(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^[\s>#*+|-]+|\|/gm, ' ')
    .replace(/\*\*|__|`|~~/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A one-line summary of a block, at most `max` characters: its first
 * sentence, or for a list its first items joined with "; ".
 */
export function firstSentence(text: string, max: number): string {
  const lines = text.split('\n').filter((l) => l.trim());
  if (lines.length > 1 && lines.every((l) => /^\s*(?:[-*+]|\d+[.)]|\|)/.test(l))) {
    // Items nested under one item say more about it: that item alone is the first sentence.
    const items = lines.filter((l) => /^(?:[-*+]|\d+[.)]|\|)/.test(l));
    if (items.length !== 1) return clip(lines.map(plainText).filter(Boolean).join('; '), max);
    text = items[0]!;
  }
  const plain = plainText(text);
  const sentence = /^(.+?[.!?。！？])(?:\s|$)/.exec(plain)?.[1] ?? plain;
  return clip(sentence, max);
}

/** How much a text says, in English-letter terms: a CJK character says about as much as a short word. */
export function textWeight(text: string): number {
  return [...text].reduce((n, c) => n + (/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(c) ? 3 : 1), 0);
}

/** `text` within `max` characters, cut at clauses, its rules kept first (see shortenHook). */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : shortenHook(text, max, '', true);
}

/**
 * A name and a description for a block of the index: the name from its
 * heading, else from a bold or `Label:` lead-in, else its first sentence; the
 * description from what the block says beyond its name, so the index hook
 * tells when the memory matters instead of repeating the title.
 */
export function nameAndDescription(text: string, heading: string): { name: string; description: string } {
  const plain = plainText(text);
  const lead = /^\s*(?:[-*+]\s+)?\*\*([^*\n]{2,60}?)[:：]?\*\*[:：]?/.exec(text)?.[1] ?? /^([^\n:：.。!?|`]{2,40})[:：]\s/.exec(plain)?.[1];
  const titled = plainText(heading) || lead?.trim();
  if (!titled) {
    // The first sentence names it; what follows describes it (a one-sentence block is its own description).
    const first = firstSentence(text, 1000);
    const rest = plain.startsWith(first) ? plain.slice(first.length).trim() : '';
    const description = textWeight(rest) >= 20 ? firstSentence(rest, 140) : clip(textWeight(first) >= 20 ? first : `${plain} (moved from the memory index)`, 140);
    // A name is a title, not a sentence: no full stop at its end.
    return { name: clip(first.replace(/[.。]$/, '') || 'Notes from the index', 60), description };
  }
  const name = clip(titled, 60);
  let description = stripLead(firstSentence(text, 140), name);
  if (textWeight(description) < 20) description = stripLead(clip(plain, 140), name);
  if (textWeight(description) < 20) description = clip(`${plain || name} (${name})`, 140);
  return { name, description };
}

/** A pointer's hook for a memory: its description without a repeat of the title in front. */
export function hookFor(title: string, description: string): string {
  const stripped = stripLead(description, title);
  return textWeight(stripped) >= 20 ? stripped : description;
}

/** `text` without `name` (or the part of it before a clip mark) and the punctuation after it in front. */
function stripLead(text: string, name: string): string {
  const head = name.replace(/…$/, '').trim().toLowerCase();
  if (!head || !text.toLowerCase().startsWith(head)) return text;
  const rest = text
    .slice(head.length)
    .replace(/^[\s.,;:：—–-]+/, '')
    .trim();
  return textWeight(rest) >= 20 ? rest : text;
}

/**
 * A table row that links one file, read as a pointer: the link's text as its title (else the first
 * other cell), the link target, and the other cells (the hook). Undefined for any other line.
 */
export function tableRowPointer(raw: string): { title: string; target: string; cells: string[] } | undefined {
  if (!/^\s*\|/.test(raw)) return undefined;
  const links = [...raw.matchAll(/\[([^\]]*)\]\(([^)\s]+)\)/g)];
  const [link = '', text = '', target = ''] = links.length === 1 ? links[0]! : [];
  if (!target || classifyPointerTarget(target).kind !== 'file') return undefined;
  const cells = raw
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.replace(link, '').trim())
    .filter(Boolean);
  const title = text.trim() || cells.shift();
  return title ? { title, target, cells } : undefined;
}
