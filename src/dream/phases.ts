import { messages } from '../core/messages.js';
import { isStandingRule } from '../core/standing-rules.js';
import { calendarDay } from '../core/dates.js';
import { classifyPointerTarget, pointerPath, topicFilesKeptElsewhere } from '../core/memory-index.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { comparableText, containment, similarPairs, tokenSet } from '../core/similarity.js';
import { ruleWords } from '../core/standing-rules.js';
import { memoryFields, serializeTopicFile, withBody } from '../core/topic-file.js';
import type { PlanState, Topic } from '../restructure/phases/state.js';
import { citationKey, citations, type Citation } from './drift.js';

/*
 * Dream's own phases over the refactor plan state: dead pointers dropped,
 * contradictions found, statements about code the repository no longer has
 * marked (or removed), true duplicates merged. Each removal is recorded with
 * its reason (as a dropped line, so the nothing-lost check accounts for it,
 * and as an action for the report); a memory with nothing of substance left
 * is deleted.
 */

export type DreamActionKind = 'dead-pointer' | 'contradiction' | 'drift' | 'stale' | 'model' | 'merge' | 'date' | 'index';

export interface DreamAction {
  kind: DreamActionKind;
  path: string;
  /** What happens to the file: a line removed or rewritten, or the whole file deleted. */
  effect: 'rewrite' | 'delete';
  reason: string;
}

export interface DreamState {
  plan: PlanState;
  actions: DreamAction[];
  /** Topic files the dream phases delete, with the reason. */
  deleted: Map<string, string>;
}

/** An operation the claude engine proposed, already validated (see claude.ts). */
export interface ModelProposal {
  op: 'delete' | 'remove-lines';
  path: string;
  lines: string[];
  reason: string;
}

/** What git says about the project, for drift. */
export interface RepoFacts {
  /** Tracked now, relative to the repository root. */
  files: ReadonlySet<string>;
  /** Deleted at some point in the history (and not tracked now). */
  deleted: ReadonlySet<string>;
  /** Symbols, flags and commands the repository had and no longer has (citationKey → how git knows). */
  gone: ReadonlyMap<string, string>;
}

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * A pointer to a file that does not exist is dropped: there is no memory behind it, and a second
 * pointer to the same file goes with it. A pointer with lines nested under it stays: those lines
 * are the index's own text about it. Runs before the detail lines move, so a dropped pointer's
 * duplicates are not kept as details. The headings this empties are accounted for once the index
 * is rendered (restructure/phases/vanished-headings).
 */
export function dropDeadPointers(dream: DreamState, options: { keepRules: boolean }): void {
  const { plan } = dream;
  // Unattended, a dead pointer that states a rule stays: the agent reads the rule on that line.
  const ruleTargets = new Set(options.keepRules ? plan.pointers.filter((p) => isStandingRule(p.raw)).map((p) => p.target) : []);
  const isDead = (target: string) => !plan.topics.has(target) && target.endsWith('.md') && classifyPointerTarget(target).kind === 'file';
  const dead = plan.pointers.filter((p) => isDead(p.target)).length;
  if (topicFilesKeptElsewhere(dead, plan.pointers.length)) {
    plan.warnings.push({ path: INDEX_FILE, message: messages.deadPointersKeptElsewhere(dead, plan.pointers.length) });
    return;
  }
  plan.pointers = plan.pointers.filter((pointer) => {
    if (plan.topics.has(pointer.target) || !pointer.target.endsWith('.md') || classifyPointerTarget(pointer.target).kind !== 'file') return true;
    if ((plan.details.get(pointer.target) ?? []).some((line) => /^\s/.test(line))) return true;
    if (ruleTargets.has(pointer.target)) {
      plan.warnings.push({ path: INDEX_FILE, message: messages.deadPointerKeptForRule(pointer.target) });
      return true;
    }
    const reason = `points to ${pointer.target}, which does not exist`;
    plan.deadTargets.set(pointer.target, reason);
    plan.dropped.push({ text: pointer.raw, reason, source: INDEX_FILE });
    dream.actions.push({ kind: 'dead-pointer', path: INDEX_FILE, effect: 'rewrite', reason: `dropped the pointer to ${pointer.target}: it does not exist` });
    return false;
  });
  if (plan.deadTargets.size === 0) return;
  const first = new Set(plan.dropped.map((d) => d.text));
  for (const line of plan.parsedIndex.lines) {
    const reason = line.kind === 'pointer' ? plan.deadTargets.get(pointerPath(line.target)) : undefined;
    if (reason && !first.has(line.raw)) plan.dropped.push({ text: line.raw, reason, source: INDEX_FILE });
  }
  for (const target of plan.deadTargets.keys()) plan.details.delete(target);
}

/** Numbers and dates: what differs between two statements of the same fact. */
const VALUE = /\b\d{4}-\d{2}-\d{2}\b|\b\d+(?:[.,:]\d+)*\b/g;

/** A statement's shape with its values masked, when it has values and enough words to be a statement. */
function statementShape(line: string): string | undefined {
  const text = normalize(line).toLowerCase();
  if (!VALUE.test(text)) return undefined;
  VALUE.lastIndex = 0;
  const shape = text.replace(VALUE, '#');
  return shape.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length >= 4 ? shape : undefined;
}

function editable(topic: Topic): boolean {
  return !topic.broken && !topic.leftAlone;
}

/** Share of terms two memories must share to be about the same thing (lower than a near-duplicate). */
const SAME_SUBJECT_THRESHOLD = 0.3;

/**
 * Two memories of the same type and subject (sharing a third of their terms)
 * stating the same fact with different values (the same sentence but another
 * date or number). With `apply` the newer one wins and the older statement is
 * removed with the reason recorded; without, each is reported and left for the
 * user (an older value may be the one still true).
 */
export function resolveContradictions(dream: DreamState, apply: boolean): void {
  const { plan } = dream;
  const candidates = [...plan.topics.values()].filter(editable);
  const texts = candidates.map((t) => comparableText(memoryFields(t.file.frontmatter?.data ?? {}), t.file.body));
  const related = new Set(
    similarPairs(texts, { threshold: SAME_SUBJECT_THRESHOLD }).flatMap(({ a, b }) => [`${candidates[a]!.path}\u0000${candidates[b]!.path}`, `${candidates[b]!.path}\u0000${candidates[a]!.path}`]),
  );
  const byShape = new Map<string, Array<{ topic: Topic; line: string }>>();
  for (const topic of candidates) {
    const type = String(topic.file.frontmatter?.data.type ?? '');
    for (const line of topic.file.body.split(/\r?\n/)) {
      const shape = statementShape(line);
      if (shape) byShape.set(`${type}\u0000${shape}`, [...(byShape.get(`${type}\u0000${shape}`) ?? []), { topic, line }]);
    }
  }
  const removals = new Map<Topic, Array<{ line: string; reason: string }>>();
  for (const statements of byShape.values()) {
    if (new Set(statements.map((s) => normalize(s.line))).size < 2 || new Set(statements.map((s) => s.topic)).size < 2) continue;
    const newest = statements.reduce((a, b) => (b.topic.anchor > a.topic.anchor ? b : a));
    // Two statements of the same date cannot say which is newer: both stay.
    if (statements.some((s) => s.topic !== newest.topic && s.topic.anchor.getTime() === newest.topic.anchor.getTime())) continue;
    for (const s of statements) {
      if (s.topic === newest.topic || normalize(s.line) === normalize(newest.line) || !related.has(`${s.topic.path}\u0000${newest.topic.path}`)) continue;
      const reason = `contradicted by the newer ${newest.topic.path} (${newest.topic.anchorSource}): "${normalize(newest.line)}"`;
      removals.set(s.topic, [...(removals.get(s.topic) ?? []), { line: s.line, reason }]);
    }
  }
  for (const [topic, lines] of removals) {
    if (apply) removeLines(dream, topic, lines, 'contradiction');
    else for (const { line, reason } of lines) plan.warnings.push({ path: topic.path, message: `"${normalize(line)}" is ${reason}; left as it is` });
  }
}

/** Why a citation drifted, when git says the repository had it and no longer has. */
function driftReason(citation: Citation, repo: RepoFacts): string | undefined {
  if (citation.kind === 'file')
    return repo.deleted.has(citation.name) && !repo.files.has(citation.name) ? `cites ${citation.name}, which the repository no longer has (deleted in its git history)` : undefined;
  const detail = repo.gone.get(citationKey(citation));
  return detail && `cites \`${citation.text}\`, which the repository no longer has (${detail})`;
}

/** The note a drift mark adds on the line after a stale statement: the agent reads it with the line. */
const STALE_NOTE = '**Stale?**';
const isStaleNote = (line: string | undefined) => line?.trimStart().startsWith(STALE_NOTE) ?? false;

/** The note under a stale line, indented to stay with a list item. */
function staleNote(line: string, reason: string, today: Date): string {
  const indent = /^(\s*)(?:[-*+]|\d+[.)])\s/.exec(line)?.[1];
  return `${indent === undefined ? (/^\s*/.exec(line)?.[0] ?? '') : `${indent}  `}${STALE_NOTE} (${calendarDay(today)}) ${reason}`;
}

/**
 * Statements citing what the repository had and no longer has (per git: a
 * deleted file, a symbol or flag git grep no longer finds, a script, make
 * target or just recipe gone) describe code that is gone — or history that is
 * still true ("we moved X out of get_all()"). By default each gets a dated
 * `**Stale?**` note on the line after, once; with `prune` it is removed (with a
 * note it had). Names git never knew are left alone (they may name something
 * elsewhere: a library, an environment variable).
 */
export function driftPhase(dream: DreamState, repo: RepoFacts | undefined, options: { prune: boolean; today: Date }): void {
  if (!repo || (repo.deleted.size === 0 && repo.gone.size === 0)) return;
  for (const topic of dream.plan.topics.values()) {
    if (!editable(topic)) continue;
    const body = topic.file.body.split(/\r?\n/);
    const stale: Array<{ at: number; line: string; reason: string }> = [];
    body.forEach((line, at) => {
      if (isStaleNote(line)) return;
      const reason = citations(line)
        .map((c) => driftReason(c, repo))
        .find(Boolean);
      if (reason) stale.push({ at, line, reason });
    });
    if (options.prune) {
      const notes = stale.flatMap(({ at, reason }) => (isStaleNote(body[at + 1]) ? [{ line: body[at + 1]!, reason }] : []));
      if (stale.length) removeLines(dream, topic, [...stale, ...notes], 'drift');
      continue;
    }
    const unmarked = stale.filter(({ at }) => !isStaleNote(body[at + 1]));
    if (unmarked.length === 0) continue;
    const marked = body.flatMap((line, at) => {
      const found = unmarked.find((s) => s.at === at);
      return found ? [line, staleNote(line, found.reason, options.today)] : [line];
    });
    topic.file = withBody(topic.file, marked.join(topic.file.eol));
    for (const { line, reason } of unmarked) dream.actions.push({ kind: 'stale', path: topic.path, effect: 'rewrite', reason: `marked "${normalize(line)}" stale: ${reason}` });
  }
}

/** The claude engine's validated proposals; a memory an earlier phase already removed is skipped. */
export function applyModelProposals(dream: DreamState, proposals: readonly ModelProposal[]): void {
  for (const proposal of proposals) {
    const topic = dream.plan.topics.get(proposal.path);
    if (!topic || !editable(topic)) continue;
    const body = topic.file.body.split(/\r?\n/);
    const lines = proposal.op === 'delete' ? body.filter(SUBSTANCE) : proposal.lines.filter((l) => body.includes(l));
    if (lines.length)
      removeLines(
        dream,
        topic,
        lines.map((line) => ({ line, reason: `the model: ${proposal.reason}` })),
        'model',
      );
  }
}

const SUBSTANCE = (line: string) => line.trim() !== '' && !/^\s*#/.test(line) && !/^\s*\*\*(?:Why|How to apply):\*\*/.test(line);

/** Remove statements from a topic; when nothing of substance is left, delete the whole memory. */
function removeLines(dream: DreamState, topic: Topic, lines: Array<{ line: string; reason: string }>, kind: 'contradiction' | 'drift' | 'model'): void {
  const { plan } = dream;
  const gone = new Set(lines.map((l) => l.line));
  const eol = topic.file.eol;
  const kept = topic.file.body.split(/\r?\n/).filter((line) => !gone.has(line));
  for (const { line, reason } of lines) plan.dropped.push({ text: line, reason, source: topic.path });
  if (kept.some(SUBSTANCE)) {
    topic.file = withBody(topic.file, kept.join(eol));
    for (const { line, reason } of lines) dream.actions.push({ kind, path: topic.path, effect: 'rewrite', reason: `removed "${normalize(line)}": ${reason}` });
    return;
  }
  const reason = lines[0]!.reason;
  // Everything the file held goes with it; each line is listed as dropped for that reason.
  for (const line of (topic.originalText ?? '').split(/\r?\n/)) if (line.trim() && !gone.has(line)) plan.dropped.push({ text: line, reason, source: topic.path });
  const pointers = plan.pointers.filter((p) => p.target === topic.path);
  for (const pointer of pointers) if (pointer.raw) plan.dropped.push({ text: pointer.raw, reason, source: INDEX_FILE });
  plan.pointers = plan.pointers.filter((p) => p.target !== topic.path);
  plan.topics.delete(topic.path);
  dream.deleted.set(topic.path, reason);
  dream.actions.push({ kind, path: topic.path, effect: 'delete', reason });
}

/** Share of the poorer memory's terms the richer one must hold for the two to be one memory written twice. */
const TRUE_DUPLICATE_CONTAINMENT = 0.8;

/**
 * True duplicates — two memories of one type and subject where the poorer one's terms are
 * (nearly) all in the richer one — become one file: the one with more information survives (the newer on a tie),
 * and the poorer one's lines that say something the survivor does not are appended to it as
 * lines. Nothing is pasted to introduce them (no heading, no old hook): a line whose every word
 * the survivor already holds restates it and is reported as dropped, as is the poorer file's
 * frontmatter. Two that state one fact with different values disagree: not merged. Index
 * pointers follow state.mergedAway.
 */
export function mergeTrueDuplicates(dream: DreamState): void {
  const { plan } = dream;
  const candidates = [...plan.topics.values()].filter(editable);
  const texts = candidates.map((t) => comparableText(memoryFields(t.file.frontmatter?.data ?? {}), t.file.body));
  const terms = texts.map(tokenSet);
  const merged = new Set<string>();
  // A richer copy shares less than a near-duplicate's share of terms with the poorer: what makes
  // them one memory is that the poorer one's terms are (nearly) all in it.
  for (const { a, b, score } of similarPairs(texts, { threshold: SAME_SUBJECT_THRESHOLD, minTokens: 3 })) {
    const [x, y] = [candidates[a]!, candidates[b]!];
    if (merged.has(x.path) || merged.has(y.path) || memoryFields(x.file.frontmatter?.data ?? {}).type !== memoryFields(y.file.frontmatter?.data ?? {}).type) continue;
    // A file this run would create from index text never replaces one the user has.
    const fresh = (t: Topic) => t.originalText === undefined;
    const richerFirst = fresh(x) !== fresh(y) ? fresh(y) : terms[a]!.size > terms[b]!.size || (terms[a]!.size === terms[b]!.size && x.anchor > y.anchor);
    const [poorer, richer, poorerTerms, richerTerms] = richerFirst ? [y, x, terms[b]!, terms[a]!] : [x, y, terms[a]!, terms[b]!];
    if (containment(poorerTerms, richerTerms) < TRUE_DUPLICATE_CONTAINMENT) continue;
    const richerText = serializeTopicFile(richer.file);
    const held = new Set(ruleWords(richerText));
    const present = new Set(richer.file.body.split(/\r?\n/).map((l) => l.trim()));
    // The same statement with another value is a contradiction (reported), not a duplicate.
    const shapes = new Set([...present].map(statementShape).filter(Boolean));
    if (poorer.file.body.split(/\r?\n/).some((line) => !present.has(line.trim()) && shapes.has(statementShape(line)))) continue;
    const added: string[] = [];
    for (const line of poorer.file.body.split(/\r?\n/)) {
      if (!line.trim() || present.has(line.trim())) continue;
      if (ruleWords(line).every((w) => held.has(w)))
        plan.dropped.push({ text: line, reason: `${poorer.path} was merged into ${richer.path}, which holds every word of this line`, source: poorer.path });
      else added.push(line);
    }
    for (const line of fresh(poorer) ? [] : (poorer.file.frontmatter?.raw ?? '').split(/\r?\n/)) {
      if (line.trim() && !/^(?:---|\.\.\.)\s*$/.test(line) && !richerText.includes(line.trim()))
        plan.dropped.push({ text: line, reason: `frontmatter of ${poorer.path}, merged into ${richer.path}, which keeps its own`, source: poorer.path });
    }
    const eol = richer.file.eol;
    if (added.length) richer.file = withBody(richer.file, `${richer.file.body.replace(/\s*$/, '')}${eol}${eol}${added.join(eol)}${eol}`);
    plan.mergedAway.set(poorer.path, richer.path);
    plan.topics.delete(poorer.path);
    merged.add(poorer.path).add(richer.path);
    plan.operations.push({ kind: 'merge', into: richer.path, from: poorer.path, similarity: Math.round(score * 100) / 100 });
    const gained = added.length ? `; ${added.length} line(s) it lacked added there` : '';
    if (fresh(poorer)) {
      dream.actions.push({ kind: 'merge', path: richer.path, effect: 'rewrite', reason: `index text that would have become ${poorer.path} is already in it, not made a file of its own${gained}` });
      continue;
    }
    if (added.length)
      dream.actions.push({ kind: 'merge', path: richer.path, effect: 'rewrite', reason: `${added.length} line(s) of ${poorer.path}, a true duplicate holding less, that it lacked added at its end` });
    dream.actions.push({
      kind: 'merge',
      path: poorer.path,
      effect: 'delete',
      reason: `merged into ${richer.path}, a true duplicate that holds more (${richerTerms.size} terms to ${poorerTerms.size}; ${Math.round(score * 100)}% similar)`,
    });
  }
}
