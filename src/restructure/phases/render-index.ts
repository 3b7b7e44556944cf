import { INDEX_LINE_MAX, INDEX_LINE_WARN } from '../../core/limits.js';
import { renderPointer } from '../../core/memory-index.js';
import { INDEX_FILE, isMemoryType, type MemoryType } from '../../core/taxonomy.js';
import { memoryFields, newTopicFile, serializeTopicFile, withBody, type TopicFile } from '../../core/topic-file.js';
import { messages } from '../../core/messages.js';
import { shortenHook } from '../../core/shorten-hook.js';
import { isStandingRule, loadedWords, standingRules } from '../../core/standing-rules.js';
import { loadIndex } from '../../core/load-model.js';
import { clip } from '../classify.js';
import { accountForVanishedHeadings } from './vanished-headings.js';
import { indexStats, lineCount, rewriteDates, splitSection, SUB_INDEX_SIZE, TYPE_TITLE, typeFromFileName, type PlanState, type Pointer, type RefactorPlan } from './state.js';

type Entry = {
  type: MemoryType | 'other';
  section: string;
  /** The pointer line as it goes into MEMORY.md (with the detail lines kept under a file left alone). */
  line: string;
  /** The line with its hook whole, as a sub-index lists it. */
  full: string;
  title: string;
  target: string;
  /** The hook, when the line may be shortened (its topic file takes what the line leaves out). */
  hook?: string;
  /** YYYY-MM-DD the memory says it was last changed ('' when it does not say): newest stay in MEMORY.md first. */
  recency: string;
  /** A line left where it was (moving it would lose words): always in MEMORY.md. */
  kept?: boolean;
  /** A rule the agent keeps seeing first: a feedback or user memory, or a line or section marked always/never/IMPORTANT. */
  standing: boolean;
  /** The heading of the one-pointer section this entry was folded out of. */
  foldedFrom?: string;
};

const TYPE_ORDER = ['user', 'feedback', 'project', 'reference', 'other'] as const;

/** What a shortened hook or a folded heading leaves in the topic file, when the file does not say it already. */
const NOTE_LABEL = 'Index note:';
const SECTION_LABEL = 'Index section:';

/**
 * Last phase: the new index (every topic file once, pointers under the
 * section they were in, the rest grouped by type) and the changed files. A
 * line is shortened only past Claude Code's ~200-character warning. When the
 * index does not fit in what the agent loads (200 lines, 25,000 characters),
 * room is made in order: blank lines, then the headings of one-pointer
 * sections, then hooks shortened to 150 characters, and only then a partial
 * second level: MEMORY.md keeps direct pointers for as many memories as fit —
 * standing rules first, then the most recently changed — and points to
 * per-type sub-indexes for the rest, each demotion reported with its reason.
 * Rules themselves are cut only when that keeps more of them than demoting would.
 */
export function renderIndex(state: PlanState): RefactorPlan {
  const entries = indexEntries(state).map((e) => shortened(e, INDEX_LINE_WARN));
  const changes = new Map<string, string | null>();
  const head = (compact: boolean) => [state.title ?? '# Memory', ...(compact ? [] : ['']), ...(state.topLine ? [state.topLine, ...(compact ? [] : [''])] : [])];
  const fits = (lines: string[]) => {
    const loaded = loadIndex(lines.join('\n'));
    return !loaded.wasLineTruncated && !loaded.wasByteTruncated;
  };
  const wantedSubIndexes = new Map<string, string>();
  let direct = entries;
  let indexOut = [...head(false), ...renderGroups(entries, false)];
  // Room from what carries no memory first, then from the hooks; a second level only when a flat index cannot fit.
  const steps = [(list: Entry[]) => list, foldSingleSections, (list: Entry[]) => list.map((e) => shortened(e, INDEX_LINE_MAX))];
  for (const step of steps) {
    if (fits(indexOut)) break;
    direct = step(direct);
    indexOut = [...head(true), ...renderGroups(direct, true)];
  }
  if (!fits(indexOut)) {
    let chosen = secondLevel(direct, (lines) => fits([...head(true), ...lines]));
    if (chosen.standingDemoted > 0) {
      // Rules cut at a comma or a word rather than whole pointers to them leaving what the agent loads.
      const cut = direct.map((e) => shortened(e, INDEX_LINE_MAX, true));
      const tighter = secondLevel(cut, (lines) => fits([...head(true), ...lines]));
      if (tighter.standingDemoted < chosen.standingDemoted) chosen = tighter;
    }
    indexOut = [...head(true), ...chosen.lines];
    direct = chosen.kept;
    for (const sub of chosen.subIndexes) {
      wantedSubIndexes.set(sub.path, sub.content);
      for (const e of sub.entries) state.operations.push({ kind: 'demote', path: e.target, into: sub.path, reason: e.standing ? messages.demotedRule() : messages.demotedHistory(e.type) });
    }
  }
  // Shorter hooks may leave room for the blank lines again (and a second run would put them back).
  const spaced = [...head(false), ...renderGroups(direct, false)];
  if (wantedSubIndexes.size === 0 && fits(spaced)) indexOut = spaced;
  for (const e of direct) noteInTopicFile(state, e);
  while (indexOut[indexOut.length - 1] === '') indexOut.pop();
  // Line endings and BOM as the index had them: a CRLF index stays CRLF.
  const { bom, eol } = state.parsedIndex;
  const newIndex = `${bom}${indexOut.join('\n').replace(/\n/g, eol)}${eol}`;
  for (const sub of state.subIndexes) if (!wantedSubIndexes.has(sub)) changes.set(sub, null);
  for (const [sub, content] of wantedSubIndexes) if (state.files.get(sub)?.text !== content) changes.set(sub, content);

  for (const topic of state.topics.values()) {
    if (topic.leftAlone) continue;
    const text = serializeTopicFile(topic.file);
    if (text !== topic.originalText) changes.set(topic.path, text);
  }
  for (const path of state.mergedAway.keys()) changes.set(path, null);
  if (newIndex !== state.indexText) {
    changes.set(INDEX_FILE, newIndex);
    state.operations.push({ kind: 'rewrite-index', path: INDEX_FILE });
  }
  accountForVanishedHeadings(state, [newIndex, ...wantedSubIndexes.values()]);
  if (!fits([newIndex])) state.warnings.push({ path: INDEX_FILE, message: `still ${lineCount(newIndex)} lines, ${newIndex.length.toLocaleString('en-US')} characters` });
  const { blockTexts: blocks, operations, dropped, warnings } = state;
  return { blocks, operations, changes, dropped, warnings, before: indexStats(state.indexText), after: indexStats(newIndex) };
}

const priority = (e: Entry) => (e.kept ? -1 : e.standing ? 0 : 1);

/**
 * The partial second level: direct pointers for as many entries as `fits`, the most important
 * first, sub-indexes for the rest; how many standing rules it demotes.
 */
function secondLevel(entries: Entry[], fits: (lines: string[]) => boolean) {
  // Ties by recency, then file name, so a second run (reading the sub-indexes back) picks the same.
  const ranked = [...entries].sort((a, b) => priority(a) - priority(b) || (a.recency < b.recency ? 1 : a.recency > b.recency ? -1 : 0) || (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  const layout = (count: number) => {
    const chosen = new Set(ranked.slice(0, count));
    const kept = entries.filter((e) => chosen.has(e));
    const subIndexes = subIndexFiles(entries.filter((e) => !chosen.has(e)));
    const lines = [...renderGroups(kept, true), ...(subIndexes.length ? ['## More memories', ...subIndexes.map((s) => s.pointer)] : [])];
    return { lines, subIndexes, kept, standingDemoted: ranked.slice(count).filter((e) => e.standing).length };
  };
  // The largest number of direct pointers that still fits (the layout grows with it).
  let low = 0;
  let high = ranked.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(layout(mid).lines)) low = mid;
    else high = mid - 1;
  }
  return layout(low);
}

/** The entry with its line within `max` characters where its hook allows (see shortenHook). */
function shortened(e: Entry, max: number, cutRules = false): Entry {
  if (e.hook === undefined || e.line.length <= max) return e;
  const target = linkTarget(e.target);
  const fixed = renderPointer({ title: e.title, target, hook: 'x' }).length - 1;
  const line = renderPointer({ title: e.title, target, hook: shortenHook(e.hook, Math.max(20, max - fixed), e.title, cutRules) });
  return line.length < e.line.length ? { ...e, line } : e;
}

/**
 * A section holding one pointer gives its heading up: the pointer joins the section around it
 * (or its type's group). Only a pointer whose topic file can take the heading's words is moved,
 * and never out from under a heading that states a rule.
 */
function foldSingleSections(entries: Entry[]): Entry[] {
  const count = new Map<string, number>();
  for (const e of entries) count.set(e.section, (count.get(e.section) ?? 0) + 1);
  return entries.map((e) => {
    const path = splitSection(e.section);
    // A heading that states a rule ("IMPORTANT", "always apply") stays in view.
    if (!e.section || e.kept || e.hook === undefined || count.get(e.section) !== 1 || isStandingRule(path[path.length - 1]!)) return e;
    return { ...e, section: path.slice(0, -1).join('\n'), foldedFrom: path[path.length - 1] };
  });
}

/**
 * Entries under their section headings (or their type's), groups in order of
 * first appearance; nested sections keep their heading levels, and a heading
 * shared with the previous group is not repeated. Compact: no blank lines between groups.
 */
function renderGroups(entries: Entry[], compact: boolean, line: (e: Entry) => string = (e) => e.line): string[] {
  const groups = new Map<string, Entry[]>();
  for (const e of entries) {
    const key = e.section || `\u0000${e.type}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const out: string[] = [];
  let previous: string[] = [];
  for (const [key, group] of groups) {
    const path = key.startsWith('\u0000') ? [TYPE_TITLE[group[0]!.type]] : splitSection(key);
    let shared = 0;
    while (shared < path.length && shared < previous.length && path[shared] === previous[shared]) shared++;
    if (shared === path.length && path.length > 0) shared--; // the same section twice: repeat its heading
    if (!compact && out.length && out[out.length - 1] !== '') out.push('');
    out.push(...path.slice(shared).map((heading, i) => `${'#'.repeat(Math.min(6, 2 + shared + i))} ${heading}`));
    // An empty section is its heading alone.
    out.push(...group.map(line).filter(Boolean));
    previous = path;
  }
  return out;
}

/** The memories that do not fit in MEMORY.md, in files of at most SUB_INDEX_SIZE pointers per type, each with its hook whole. */
function subIndexFiles(rest: Entry[]): Array<{ path: string; content: string; pointer: string; entries: Entry[] }> {
  const files: Array<{ path: string; content: string; pointer: string; entries: Entry[] }> = [];
  for (const type of TYPE_ORDER) {
    const ofType = rest.filter((e) => e.type === type);
    // Pointers without a section first, so none of them sits under another section's heading.
    const ordered = [...ofType.filter((e) => !e.section), ...ofType.filter((e) => e.section)];
    for (let i = 0; i < ordered.length; i += SUB_INDEX_SIZE) {
      const chunk = ordered.slice(i, i + SUB_INDEX_SIZE);
      const n = i / SUB_INDEX_SIZE + 1;
      const path = `index_${type}${n > 1 ? `_${n}` : ''}.md`;
      const name = `${TYPE_TITLE[type]} memories${n > 1 ? ` (${n})` : ''}`;
      const what = `${chunk.length} more ${type === 'other' ? '' : `${type} `}memories: ${chunk.map((e) => e.title.replace(/\\(.)/g, '$1')).join(', ')}`;
      // A folded entry goes back under its own heading there.
      const body = renderGroups(
        chunk.map((e) => (e.foldedFrom === undefined ? e : { ...e, section: [...splitSection(e.section), e.foldedFrom].join('\n'), foldedFrom: undefined })),
        false,
        (e) => e.full,
      );
      const content = serializeTopicFile(newTopicFile({ name, description: clip(`Index of ${what}`, 150), type: 'reference' }, body.join('\n')));
      const pointer = renderPointer({ title: name, target: path, hook: clip(what, Math.max(20, INDEX_LINE_MAX - path.length - name.length - 10)) });
      files.push({ path, content, pointer, entries: chunk });
    }
  }
  return files;
}

/** A link target as Markdown needs it: only what would end the link is escaped, other scripts stay readable. */
function linkTarget(path: string): string {
  return path.replace(/[%\s()<>[\]]/g, (c) => encodeURIComponent(c));
}

/** One index line per surviving topic file, with its type and section. */
function indexEntries(state: PlanState): Entry[] {
  const byTarget = new Map<string, Pointer>();
  const survivor = (path: string): string => {
    let current = path;
    while (state.mergedAway.has(current)) current = state.mergedAway.get(current)!;
    return current;
  };
  // A file's own pointer stands for everything merged into it (the merge carried the other pointers'
  // text into its body); a survivor without one gets the first merged pointer, redrawn to point at it.
  const pointedDirectly = new Set(state.pointers.map((p) => p.target));
  for (const pointer of state.pointers) {
    const target = survivor(pointer.target);
    if (byTarget.has(target) || (target !== pointer.target && pointedDirectly.has(target))) continue;
    byTarget.set(target, target === pointer.target ? pointer : { ...pointer, target, raw: '' });
  }
  // A pointer merged into another file leaves its rules on the survivor's line: the agent keeps seeing them.
  for (const pointer of state.pointers) {
    const into = byTarget.get(survivor(pointer.target));
    if (!into || into.target === pointer.target) continue;
    const shown = loadedWords(`${into.title} ${into.hook}`);
    const rules = standingRules(renderPointer(pointer)).filter((rule) => !rule.words.every((w) => shown.has(w)));
    if (rules.length) byTarget.set(into.target, { ...into, hook: [into.hook, ...rules.map((r) => r.clause)].filter(Boolean).join('; '), raw: '' });
  }
  const keptTargets = new Set(state.keptLines.map((k) => k.target));
  // Every topic file gets a pointer, also one memdir leaves alone (the file stays as it is; the index is memdir's).
  for (const topic of [...state.topics.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (byTarget.has(topic.path) || keptTargets.has(topic.path)) continue;
    const fields = memoryFields(topic.file.frontmatter?.data ?? {});
    const title = fields.name?.trim() || topic.path.replace(/^.*\//, '').replace(/\.md$/i, '').replace(/[_-]+/g, ' ');
    byTarget.set(topic.path, { title, target: topic.path, hook: fields.description ?? '', raw: '', section: '' });
  }
  // A section whose heading marks its lines as rules ("always apply", "IMPORTANT") keeps them visible first.
  const markedSection = (section: string) => splitSection(section).some(isStandingRule);
  const entries: Entry[] = state.keptLines.map((k) => ({ type: 'other', section: k.section, line: k.raw, full: k.raw, title: '', target: k.target ?? '', recency: '', kept: true, standing: true }));
  for (const pointer of byTarget.values()) {
    const topic = state.topics.get(pointer.target);
    const fields = memoryFields(topic?.file.frontmatter?.data ?? {});
    const type: Entry['type'] = isMemoryType(fields.type) ? fields.type : (topic?.leftAlone && typeFromFileName(pointer.target)) || 'other';
    const base = { type, section: pointer.section, title: pointer.title, target: pointer.target, recency: recencyOf(pointer.target, topic?.file) };
    const standing = (line: string) => type === 'feedback' || type === 'user' || isStandingRule(line) || markedSection(pointer.section);
    if ((!topic || topic.broken) && pointer.raw) {
      // Its pointer (and any detail lines under it) stays exactly as written.
      const line = [pointer.raw, ...(state.detailsKept.get(pointer.target) ?? [])].join('\n');
      entries.push({ ...base, line, full: line, standing: standing(line) });
      continue;
    }
    const line = pointer.raw || renderPointer({ title: pointer.title, target: linkTarget(pointer.target), hook: pointer.hook });
    // Only a file memdir can edit takes the text a shortened line leaves out; other lines stay whole.
    const editable = topic !== undefined && !topic.broken && !topic.leftAlone;
    entries.push({ ...base, line, full: line, standing: standing(line), ...(editable ? { hook: pointer.hook } : {}) });
  }
  return entries;
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * What the index no longer shows of a memory — the words its shortened hook left out, the heading of
 * the section it was folded out of — lives on at the top of its topic file, under a plain label,
 * unless the file says it already (its description, say).
 */
function noteInTopicFile(state: PlanState, e: Entry): void {
  const topic = state.topics.get(e.target);
  if (!topic || e.hook === undefined) return;
  const held = squeeze(serializeTopicFile(topic.file));
  const missing = (text: string) => !held.includes(squeeze(text));
  const notes: string[] = [];
  if (e.line !== e.full && missing(e.hook)) notes.push(`${NOTE_LABEL} ${e.type === 'project' ? rewriteDates(state, topic.path, e.hook, topic.dateFacts) : e.hook}`);
  if (e.foldedFrom !== undefined && missing(e.foldedFrom)) notes.push(`${SECTION_LABEL} ${e.foldedFrom}`);
  if (notes.length === 0) return;
  topic.file = withLead(topic.file, notes);
  state.operations.push({ kind: 'append', path: topic.path, lines: notes.length, source: `${INDEX_FILE} (what its pointer there no longer shows)` });
}

/** The file with `lines` on top of its body (after the body's own first heading, if it opens with one). */
function withLead(file: TopicFile, lines: string[]): TopicFile {
  const eol = file.eol;
  const body = file.body.replace(/^\s+/, '');
  const heading = /^#{1,6}[ \t].*(?:\r?\n|$)/.exec(body)?.[0] ?? '';
  return withBody(file, `${eol}${heading ? `${heading.trimEnd()}${eol}${eol}` : ''}${lines.join(eol)}${eol}${eol}${body.slice(heading.length).replace(/^\s+/, '')}`.replace(/(\r?\n)+$/, eol));
}

/** The date a memory says it was last changed: `modified`/`updated`/`date`, else one in its file name. */
function recencyOf(path: string, file: TopicFile | undefined): string {
  const data = file?.frontmatter?.data ?? {};
  for (const key of ['modified', 'updated', 'date']) {
    const value = data[key];
    const day = value instanceof Date ? value.toISOString().slice(0, 10) : typeof value === 'string' ? /\d{4}-\d{2}-\d{2}/.exec(value)?.[0] : undefined;
    if (day) return day;
  }
  return /\d{4}-\d{2}-\d{2}/.exec(path)?.[0] ?? '';
}
