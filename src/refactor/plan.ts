import { calendarDay, rewriteRelativeDates } from '../core/dates.js';
import { classifyPointerTarget, parseMemoryIndex, pointerPath, renderPointer, type IndexLine } from '../core/memory-index.js';
import { topicFileName } from '../core/paths.js';
import { comparableText, NEAR_DUPLICATE_THRESHOLD, similarPairs } from '../core/similarity.js';
import { INDEX_FILE, isMemoryType, missingWhyHow, type MemoryType } from '../core/taxonomy.js';
import { INDEX_LINE_MAX, INDEX_MAX_BYTES, INDEX_MAX_LINES, TOPIC_MAX_LINES } from '../core/limits.js';
import { truncateIndex } from '../core/truncate.js';
import { memoryFields, newTopicFile, parseTopicFile, serializeTopicFile, unquotedColonValues, withBody, withFields, type TopicFile } from '../core/topic-file.js';
import { clip, firstSentence, inferType, plainText } from './classify.js';

/** One file of the directory as the planner sees it. */
export interface PlanInputFile {
  text: string;
  /** When relative dates in it were written: `modified`, last commit or mtime, resolved by the caller. */
  anchor: Date;
  anchorSource: string;
  /**
   * Why memdir leaves this file alone (undecodable, too large, UTF-16, a symlink out): it is not
   * rewritten, merged, split or deleted, and its pointers stay as they are. `text` is '' when undecodable.
   */
  leftAlone?: string;
}

/** A model's (validated) naming of one inline block, by block number. */
export interface BlockProposal {
  name: string;
  description: string;
  type: MemoryType;
}

export interface PlanOptions {
  /** `--anchor-date`: overrides every file's own anchor. */
  anchor?: Date | undefined;
  /** `--engine claude`: names, descriptions and types for the inline blocks, by block number. */
  proposals?: ReadonlyMap<number, BlockProposal>;
  /** Pointer lines longer than this are shortened (the full hook moves into the topic file). */
  maxLineLength?: number;
}

export type Operation =
  | { kind: 'create'; path: string; type: MemoryType; source: string }
  | { kind: 'append'; path: string; lines: number; source: string }
  | { kind: 'fill-frontmatter'; path: string; fields: string[] }
  | { kind: 'quote-frontmatter'; path: string; keys: string[] }
  | { kind: 'rewrite-date'; path: string; from: string; to: string; anchor: string }
  | { kind: 'split'; path: string; parts: string[] }
  | { kind: 'merge'; into: string; from: string; similarity: number }
  | { kind: 'rewrite-index'; path: string };

export interface IndexStats {
  lines: number;
  bytes: number;
  pointers: number;
  inlineLines: number;
  /** Whether the agent loads the whole index. */
  complete: boolean;
}

export interface RefactorPlan {
  /** The inline blocks of the index that became topic files (what a model is asked to name). */
  blocks: Array<{ heading: string; text: string }>;
  operations: Operation[];
  /** Final content of every changed file; null deletes it. */
  changes: Map<string, string | null>;
  dropped: Array<{ text: string; reason: string; source: string }>;
  warnings: Array<{ path: string; message: string }>;
  before: IndexStats;
  after: IndexStats;
}

/** Pointers that fit in MEMORY.md before it becomes a two-level index (room for headings). */
const MAX_INDEX_POINTERS = 180;
const SUB_INDEX_SIZE = 150;
const SUB_INDEX = /^index_(?:user|feedback|project|reference|other)(?:_\d+)?\.md$/;
const TYPE_TITLE: Record<MemoryType | 'other', string> = { user: 'User', feedback: 'Feedback', project: 'Project', reference: 'Reference', other: 'Other' };

interface Topic {
  path: string;
  file: TopicFile;
  originalText: string | undefined;
  anchor: Date;
  anchorSource: string;
  broken: boolean;
  leftAlone?: string;
}

interface Pointer {
  title: string;
  target: string;
  hook: string;
  raw: string;
  /** The index heading it sat under (verbatim), or '' to group it by type. */
  section: string;
}

/** The type a file name announces (`feedback_terse.md` → feedback). */
function typeFromFileName(path: string): MemoryType | undefined {
  return /^(user|feedback|project|reference)_/.exec(path.replace(/^.*\//, ''))?.[1] as MemoryType | undefined;
}

function indexStats(text: string): IndexStats {
  const index = parseMemoryIndex(text);
  const truncated = truncateIndex(text);
  return {
    lines: text === '' ? 0 : text.replace(/\n$/, '').split('\n').length,
    bytes: Buffer.byteLength(text),
    pointers: index.lines.filter((l) => l.kind === 'pointer').length,
    inlineLines: index.lines.filter((l) => l.kind !== 'pointer' && l.kind !== 'heading' && l.kind !== 'blank').length,
    complete: !truncated.wasLineTruncated && !truncated.wasByteTruncated,
  };
}

function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length;
}

/** The deterministic restructuring of a memory directory (DESIGN §2.2). Pure. */
export function planRefactor(files: Map<string, PlanInputFile>, options: PlanOptions = {}): RefactorPlan {
  const maxLine = options.maxLineLength ?? INDEX_LINE_MAX;
  const operations: Operation[] = [];
  const dropped: RefactorPlan['dropped'] = [];
  const warnings: RefactorPlan['warnings'] = [];
  const anchorOf = (input: PlanInputFile) =>
    options.anchor ? { date: options.anchor, source: `--anchor-date ${calendarDay(options.anchor)}` } : { date: input.anchor, source: input.anchorSource };

  const indexInput = files.get(INDEX_FILE);
  const indexText = indexInput?.text ?? '';
  const indexAnchor = indexInput ? anchorOf(indexInput) : { date: options.anchor ?? new Date(0), source: 'none' };

  // Topic files as they are now (sub-indexes memdir wrote are rebuilt, not kept as memories).
  const topics = new Map<string, Topic>();
  const subIndexes: string[] = [];
  for (const [path, input] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (path === INDEX_FILE || path.endsWith(`/${INDEX_FILE}`)) continue;
    if (SUB_INDEX.test(path) && !input.leftAlone) {
      subIndexes.push(path);
      continue;
    }
    const { file, problems } = parseTopicFile(input.text);
    const anchor = anchorOf(input);
    // A file left alone goes through every step as one that cannot be edited.
    const broken = Boolean(input.leftAlone) || problems.some((p) => !p.lenient);
    topics.set(path, { path, file, originalText: input.text, anchor: anchor.date, anchorSource: anchor.source, broken, leftAlone: input.leftAlone });
  }
  const taken = new Set([...files.keys()]);
  const freePath = (type: string, name: string) => {
    const base = topicFileName(type, name).replace(/\.md$/, '');
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? `${base}.md` : `${base}_${n}.md`;
      if (!taken.has(candidate)) {
        taken.add(candidate);
        return candidate;
      }
    }
  };
  const rewriteDates = (path: string, text: string, anchor: { date: Date; source: string }) => {
    const rewritten = rewriteRelativeDates(text, anchor.date);
    for (const found of rewritten.rewrites) operations.push({ kind: 'rewrite-date', path, from: found.text, to: found.replacement, anchor: anchor.source });
    return rewritten.text;
  };

  // 1. Read the index: pointers (with the detail lines under them) and inline blocks by section.
  const pointers: Pointer[] = [];
  const seenTargets = new Set<string>();
  const details = new Map<string, string[]>();
  const blocks: Array<{ heading: string; rawHeading: string; lines: IndexLine[] }> = [];
  let title: string | undefined;
  let section = '';
  let lastPointer: Pointer | undefined;
  let rawHeading = '';
  let block: { heading: string; rawHeading: string; lines: IndexLine[] } | undefined;
  // MEMORY.md, then the sub-indexes of a two-level layout (their headings and pointers only).
  const parsedIndex = parseMemoryIndex(indexText);
  const documents = [parsedIndex.lines];
  for (const sub of subIndexes) documents.push(parseMemoryIndex(parseTopicFile(files.get(sub)!.text).file.body).lines.filter((l) => l.kind === 'pointer' || l.kind === 'heading'));
  for (const [number, lines] of documents.entries()) {
    if (number > 0) {
      section = '';
      rawHeading = '';
      block = undefined;
      lastPointer = undefined;
    }
  for (const line of lines) {
    if (line.kind === 'heading') {
      if (line.level === 1 && title === undefined && pointers.length === 0 && blocks.length === 0) title = line.raw;
      else {
        section = plainText(line.text);
        rawHeading = line.text;
      }
      if (TYPE_TITLES.has(section)) section = '';
      block = undefined;
      lastPointer = undefined;
      continue;
    }
    if (line.kind === 'blank') {
      if (!section) block = undefined;
      else block?.lines.push(line);
      continue;
    }
    if (line.kind === 'pointer' && classifyPointerTarget(line.target).kind !== 'external') {
      const target = pointerPath(line.target);
      lastPointer = undefined;
      block = undefined;
      if (SUB_INDEX.test(target)) continue; // the second level is rebuilt from the pointers it holds
      if (seenTargets.has(target)) {
        dropped.push({ text: line.raw, reason: 'duplicate pointer to the same file', source: `${INDEX_FILE}:${line.line}` });
        continue;
      }
      seenTargets.add(target);
      const pointer = { title: line.title, target, hook: line.hook, raw: line.raw, section: section ? rawHeading : '' };
      pointers.push(pointer);
      lastPointer = pointer;
      continue;
    }
    if (lastPointer && line.kind === 'list' && /^\s+/.test(line.raw)) {
      details.set(lastPointer.target, [...(details.get(lastPointer.target) ?? []), line.raw]);
      continue;
    }
    lastPointer = undefined;
    if (!block) {
      block = { heading: section, rawHeading: section ? rawHeading : '', lines: [] };
      blocks.push(block);
    }
    block.lines.push(line);
  }

  }

  // 2. Each inline block becomes a topic file.
  const blockTexts: RefactorPlan['blocks'] = [];
  for (const [number, b] of blocks.entries()) {
    const lines = b.lines.map((l) => l.raw);
    while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
    const text = lines.join('\n');
    blockTexts.push({ heading: b.heading, text });
    const proposal = options.proposals?.get(number);
    const type = proposal?.type ?? inferType(text, b.heading);
    const name = proposal?.name ?? clip(b.heading || firstSentence(text, 60) || 'Notes from the index', 60);
    let description = proposal?.description ?? firstSentence(text, 140);
    if (description.length < 20 || description.toLowerCase() === name.toLowerCase()) description = clip(`${name}: ${plainText(text)}`, 140);
    if (description.toLowerCase() === name.toLowerCase()) description = `${name} (moved from the memory index)`;
    const path = freePath(type, name);
    // A heading the name could not hold whole (too long, or markup) stays as the body's first line.
    const kept = b.rawHeading && b.rawHeading !== name ? `## ${b.rawHeading}\n\n${text}` : text;
    const body = kept;
    const first = b.lines[0]!.line;
    topics.set(path, { path, file: newTopicFile({ name, description, type }, body), originalText: undefined, anchor: indexAnchor.date, anchorSource: indexAnchor.source, broken: false });
    pointers.push({ title: name, target: path, hook: description, raw: '', section: b.rawHeading });
    operations.push({ kind: 'create', path, type, source: `${INDEX_FILE} lines ${first}–${b.lines[b.lines.length - 1]!.line}` });
  }

  // 3. Pointers whose file is missing: the pointer is all that is left of that memory; keep it as a file.
  for (const pointer of pointers) {
    if (topics.has(pointer.target) || !pointer.target.endsWith('.md') || classifyPointerTarget(pointer.target).kind !== 'file') continue;
    const type = inferType(`${pointer.title} ${pointer.hook}`, '');
    const description = pointer.hook.length >= 20 ? pointer.hook : clip(`${pointer.title}: ${pointer.hook || 'recreated from the memory index'}`, 140);
    topics.set(pointer.target, {
      path: pointer.target,
      file: newTopicFile({ name: pointer.title, description, type }, `${pointer.hook || pointer.title}\n\n(The index pointed here but the file was missing; memdir refactor kept the pointer's text.)`),
      originalText: undefined,
      anchor: indexAnchor.date,
      anchorSource: indexAnchor.source,
      broken: false,
    });
    operations.push({ kind: 'create', path: pointer.target, type, source: 'dead pointer in the index' });
  }

  // 4. Detail lines nested under a pointer move into that pointer's file; under a file left alone they stay in the index.
  const detailsKept = new Map<string, string[]>();
  for (const [target, lines] of details) {
    const topic = topics.get(target);
    if (topic?.leftAlone) {
      detailsKept.set(target, lines);
      continue;
    }
    if (!topic || topic.broken) {
      for (const line of lines) dropped.push({ text: line, reason: 'detail under a pointer whose file cannot be edited', source: INDEX_FILE });
      continue;
    }
    const body = topic.file.body.replace(/\s*$/, '');
    const moved = lines.join('\n');
    topic.file = withBody(topic.file, `${body}\n\n${moved}\n`.replace(/\n/g, topic.file.eol));
    operations.push({ kind: 'append', path: target, lines: lines.length, source: `detail lines under its pointer in ${INDEX_FILE}` });
  }

  // 5. Existing files: fill missing frontmatter, quote what YAML rejects, absolute dates.
  for (const topic of topics.values()) {
    if (topic.originalText === undefined) continue;
    if (topic.leftAlone) {
      warnings.push({ path: topic.path, message: topic.leftAlone });
      continue;
    }
    if (topic.broken) {
      warnings.push({ path: topic.path, message: 'frontmatter does not parse; left as it is (fix it by hand, then run refactor again)' });
      continue;
    }
    const fields = memoryFields(topic.file.frontmatter?.data ?? {});
    const fill: Record<string, string> = {};
    const fileType = typeFromFileName(topic.path);
    if (!fields.type || !isMemoryType(fields.type)) {
      if (!fields.type) fill.type = fileType ?? inferType(topic.file.body, '');
      else warnings.push({ path: topic.path, message: `type "${fields.type}" is not in the taxonomy; left as it is` });
    }
    if (!fields.name?.trim()) fill.name = clip(plainText(/^#+\s+(.+)$/m.exec(topic.file.body)?.[1] ?? topic.path.replace(/^.*\//, '').replace(/\.md$/, '').replace(/[_-]+/g, ' ')), 60);
    if (!fields.description?.trim()) {
      const sentence = firstSentence(topic.file.body, 140);
      fill.description = sentence.length >= 20 ? sentence : clip(`${fill.name ?? fields.name}: ${plainText(topic.file.body) || 'memory'}`, 140);
    }
    // Values YAML rejects (unquoted ": ") are rewritten quoted; the parsed value is unchanged.
    const quoted = Object.fromEntries(unquotedColonValues(topic.file.frontmatter?.raw ?? '').map((v) => [v.key, v.value]));
    if (Object.keys(quoted).length) {
      topic.file = withFields(topic.file, quoted, { quote: true });
      operations.push({ kind: 'quote-frontmatter', path: topic.path, keys: Object.keys(quoted) });
    }
    if (Object.keys(fill).length) {
      topic.file = withFields(topic.file, fill);
      operations.push({ kind: 'fill-frontmatter', path: topic.path, fields: Object.keys(fill) });
    }
  }

  // 6. Near-duplicates merge into the newer file (union of lines, newer frontmatter).
  // Repeated until nothing merges, so a second run finds nothing left to do.
  const mergedAway = new Map<string, string>();
  for (let merged = true; merged; ) {
    merged = false;
    const candidates = [...topics.values()].filter((t) => !t.broken);
    const texts = candidates.map((t) => comparableText(memoryFields(t.file.frontmatter?.data ?? {}), t.file.body));
    const touched = new Set<string>();
  for (const { a, b, score } of similarPairs(texts, { threshold: NEAR_DUPLICATE_THRESHOLD })) {
    const [older, newer] = candidates[a]!.anchor <= candidates[b]!.anchor ? [candidates[a]!, candidates[b]!] : [candidates[b]!, candidates[a]!];
    if (touched.has(older.path) || touched.has(newer.path)) continue;
    // The union: the older file's name and description (as a heading and a line), the title and hook
    // of its pointer (which the newer file's pointer replaces), and every line the newer lacks.
    const newerText = serializeTopicFile(newer.file);
    const present = new Set(newer.file.body.split(/\r?\n/).map((l) => l.trim()).filter(Boolean));
    const olderFields = memoryFields(older.file.frontmatter?.data ?? {});
    const olderPointer = pointers.find((p) => p.target === older.path);
    const title = olderPointer?.title.replace(/\\(.)/g, '$1');
    const carried = [...new Set([olderFields.name, title].filter((t) => t && !newerText.includes(t)).map((t) => `## ${t}`))];
    for (const line of [olderFields.description, olderPointer?.hook]) if (line && !newerText.includes(line) && !carried.includes(line)) carried.push(line);
    const extra = [...carried, ...older.file.body.split(/\r?\n/).filter((l) => l.trim() && !present.has(l.trim()) && !carried.includes(l.trim()))];
    // A merge that would need splitting again is not a merge worth making (and would not be idempotent).
    if (lineCount(newerText) + extra.length + 2 > TOPIC_MAX_LINES - 10) continue;
    if (extra.length) newer.file = withBody(newer.file, `${newer.file.body.replace(/\s*$/, '')}${newer.file.eol}${newer.file.eol}${extra.join(newer.file.eol)}${newer.file.eol}`);
    mergedAway.set(older.path, newer.path);
    topics.delete(older.path);
    touched.add(older.path).add(newer.path);
    merged = true;
    operations.push({ kind: 'merge', into: newer.path, from: older.path, similarity: Math.round(score * 100) / 100 });
  }
  }

  // Dates are made absolute in project memories (DESIGN §1.1), once everything has landed where it
  // stays; elsewhere "tomorrow" is often an idiom.
  for (const topic of topics.values()) {
    if (topic.broken || memoryFields(topic.file.frontmatter?.data ?? {}).type !== 'project') continue;
    const body = rewriteDates(topic.path, topic.file.body, { date: topic.anchor, source: topic.anchorSource });
    if (body !== topic.file.body) topic.file = withBody(topic.file, body);
  }

  // 7. Topic files over 200 lines split at their headings.
  for (const topic of [...topics.values()]) {
    if (topic.broken || lineCount(serializeTopicFile(topic.file)) <= TOPIC_MAX_LINES) continue;
    const parts = splitAtHeadings(topic.file.body, TOPIC_MAX_LINES - 10);
    if (parts.length < 2) {
      warnings.push({ path: topic.path, message: `over ${TOPIC_MAX_LINES} lines with no headings to split at` });
      continue;
    }
    const fields = memoryFields(topic.file.frontmatter?.data ?? {});
    const type = (isMemoryType(fields.type) ? fields.type : 'project') as MemoryType;
    topic.file = withBody(topic.file, parts[0]!);
    const created: string[] = [];
    parts.slice(1).forEach((part, i) => {
      const name = `${fields.name ?? topic.path} (part ${i + 2})`;
      const path = freePath(type, name);
      const description = clip(`${fields.description ?? name} — continued, part ${i + 2} of ${parts.length}`, 150);
      topics.set(path, { ...topic, path, file: newTopicFile({ name, description, type }, part), originalText: undefined });
      pointers.push({ title: name, target: path, hook: description, raw: '', section: '' });
      created.push(path);
    });
    operations.push({ kind: 'split', path: topic.path, parts: created });
  }

  // 8. Report what still lacks Why / How to apply (never invented).
  for (const topic of topics.values()) {
    if (topic.leftAlone) continue;
    const type = memoryFields(topic.file.frontmatter?.data ?? {}).type;
    const missing = missingWhyHow(type, topic.file.body);
    if (missing.length) warnings.push({ path: topic.path, message: `${type} memory without ${missing.join(' and ')} (add them by hand)` });
  }

  // 9. The new index: every topic file once, grouped by type, one short line each.
  const byTarget = new Map<string, Pointer>();
  const survivor = (path: string): string => {
    let current = path;
    while (mergedAway.has(current)) current = mergedAway.get(current)!;
    return current;
  };
  // A file's own pointer stands for everything merged into it (the merge carried the other pointers'
  // text into its body); a survivor without one gets the first merged pointer, redrawn to point at it.
  const pointedDirectly = new Set(pointers.map((p) => p.target));
  for (const pointer of pointers) {
    const target = survivor(pointer.target);
    if (byTarget.has(target) || (target !== pointer.target && pointedDirectly.has(target))) continue;
    byTarget.set(target, target === pointer.target ? pointer : { ...pointer, target, raw: '' });
  }
  for (const topic of [...topics.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (byTarget.has(topic.path) || topic.leftAlone) continue;
    const fields = memoryFields(topic.file.frontmatter?.data ?? {});
    byTarget.set(topic.path, { title: fields.name ?? topic.path, target: topic.path, hook: fields.description ?? '', raw: '', section: '' });
  }
  // Pointers keep the section they were under; the rest are grouped by type.
  const entries: Array<{ type: MemoryType | 'other'; section: string; line: string }> = [];
  for (const pointer of byTarget.values()) {
    const topic = topics.get(pointer.target);
    const fields = memoryFields(topic?.file.frontmatter?.data ?? {});
    const type = isMemoryType(fields.type) ? fields.type : ((topic?.leftAlone && typeFromFileName(pointer.target)) || 'other');
    if (topic?.leftAlone) {
      // Its pointer (and any detail lines under it) stays exactly as written.
      entries.push({ type, section: pointer.section, line: [pointer.raw, ...(detailsKept.get(pointer.target) ?? [])].join('\n') });
      continue;
    }
    let line = pointer.raw && pointer.raw.length <= maxLine ? pointer.raw : renderPointer({ title: pointer.title, target: encodeURI(pointer.target), hook: pointer.hook });
    if (line.length > maxLine) {
      line = renderPointer({ title: clip(pointer.title, 60), target: encodeURI(pointer.target), hook: clip(pointer.hook, Math.max(20, maxLine - 10 - clip(pointer.title, 60).length - pointer.target.length)) });
      // The hook text the index no longer shows must live on in the file.
      if (topic && !topic.broken && pointer.hook && !serializeTopicFile(topic.file).includes(pointer.hook)) {
        const hook = type === 'project' ? rewriteDates(topic.path, pointer.hook, { date: topic.anchor, source: topic.anchorSource }) : pointer.hook;
        topic.file = withBody(topic.file, `${topic.file.body.replace(/\s*$/, '')}${topic.file.eol}${topic.file.eol}${hook}${topic.file.eol}`);
      }
    }
    entries.push({ type, section: pointer.section, line });
  }

  const changes = new Map<string, string | null>();
  const sections = new Set(entries.map((e) => e.section || TYPE_TITLE[e.type]));
  const bytesIfFlat = entries.reduce((n, e) => n + e.line.length + 1, 0);
  const flat = entries.length + 2 * sections.size <= MAX_INDEX_POINTERS && bytesIfFlat < INDEX_MAX_BYTES - 1000;
  const indexOut: string[] = [title ?? '# Memory', ''];
  const wantedSubIndexes = new Set<string>();
  if (flat) {
    const groups = new Map<string, string[]>();
    for (const e of entries) {
      const group = e.section || TYPE_TITLE[e.type];
      groups.set(group, [...(groups.get(group) ?? []), e.line]);
    }
    for (const [group, lines] of groups) indexOut.push(`## ${group}`, ...lines, '');
  } else {
    // Too many memories for one index the agent loads whole: a second level of files per type,
    // holding the original section headings; MEMORY.md points to those files.
    for (const type of [...(['user', 'feedback', 'project', 'reference'] as const), 'other' as const]) {
      const ofType = entries.filter((e) => e.type === type);
      if (ofType.length === 0) continue;
      // Pointers without a section first, so none of them sits under another section's heading.
      const ordered = [...ofType.filter((e) => !e.section), ...orderBySection(ofType.filter((e) => e.section))];
      indexOut.push(`## ${TYPE_TITLE[type]}`);
      for (let i = 0; i < ordered.length; i += SUB_INDEX_SIZE) {
        const chunk = ordered.slice(i, i + SUB_INDEX_SIZE);
        const n = i / SUB_INDEX_SIZE + 1;
        const path = `index_${type}${n > 1 ? `_${n}` : ''}.md`;
        const name = `${TYPE_TITLE[type]} memories${n > 1 ? ` (${n})` : ''}`;
        const body: string[] = [];
        let current = '';
        for (const e of chunk) {
          if (e.section && e.section !== current) body.push(`## ${e.section}`);
          current = e.section;
          body.push(e.line);
        }
        const description = `Index of ${chunk.length} ${type} memories: ${clip(chunk.map((e) => /\[([^\]]*)\]/.exec(e.line)?.[1] ?? '').join(', '), 100)}`;
        wantedSubIndexes.add(path);
        changes.set(path, serializeTopicFile(newTopicFile({ name, description, type: 'reference' }, body.join('\n'))));
        indexOut.push(renderPointer({ title: name, target: path, hook: clip(description, Math.max(20, maxLine - path.length - name.length - 10)) }));
      }
      indexOut.push('');
    }
  }
  while (indexOut[indexOut.length - 1] === '') indexOut.pop();
  // Line endings and BOM as the index had them: a CRLF index stays CRLF.
  const newIndex = `${parsedIndex.bom}${indexOut.join('\n').replace(/\n/g, parsedIndex.eol)}${parsedIndex.eol}`;
  for (const sub of subIndexes) if (!wantedSubIndexes.has(sub)) changes.set(sub, null);
  for (const sub of wantedSubIndexes) if (files.get(sub)?.text === changes.get(sub)) changes.delete(sub);

  for (const topic of topics.values()) {
    if (topic.leftAlone) continue;
    const text = serializeTopicFile(topic.file);
    if (text !== topic.originalText) changes.set(topic.path, text);
  }
  for (const path of mergedAway.keys()) changes.set(path, null);
  if (newIndex !== indexText) {
    changes.set(INDEX_FILE, newIndex);
    operations.push({ kind: 'rewrite-index', path: INDEX_FILE });
  }
  if (lineCount(newIndex) > INDEX_MAX_LINES) warnings.push({ path: INDEX_FILE, message: `still ${lineCount(newIndex)} lines` });
  return { blocks: blockTexts, operations, changes, dropped, warnings, before: indexStats(indexText), after: indexStats(newIndex) };
}

const TYPE_TITLES = new Set(Object.values(TYPE_TITLE));

/** Entries grouped by section, sections in order of first appearance (stable within a section). */
function orderBySection<T extends { section: string }>(entries: T[]): T[] {
  const bySection = new Map<string, T[]>();
  for (const e of entries) bySection.set(e.section, [...(bySection.get(e.section) ?? []), e]);
  return [...bySection.values()].flat();
}

/**
 * Body text cut into parts of at most `max` lines: a new part starts at a
 * heading once the current part is half full, or anywhere when it is full.
 */
export function splitAtHeadings(body: string, max: number): string[] {
  const parts: string[][] = [[]];
  for (const line of body.split('\n')) {
    const current = parts[parts.length - 1]!;
    const atHeading = /^#{1,6}\s/.test(line) && current.length >= max / 2;
    if (atHeading || current.length >= max) parts.push([]);
    parts[parts.length - 1]!.push(line);
  }
  return parts.map((p) => `${p.join('\n').replace(/^\n+/, '').replace(/\s*$/, '')}\n`).filter((p) => p.trim());
}
