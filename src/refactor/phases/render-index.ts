import { INDEX_LINE_MAX, INDEX_MAX_BYTES, INDEX_MAX_LINES } from '../../core/limits.js';
import { parseMemoryIndex, renderPointer } from '../../core/memory-index.js';
import { INDEX_FILE, isMemoryType, type MemoryType } from '../../core/taxonomy.js';
import { memoryFields, newTopicFile, serializeTopicFile, withBody, type TopicFile } from '../../core/topic-file.js';
import { truncateIndex } from '../../core/truncate.js';
import { clip } from '../classify.js';
import { accountForVanishedHeadings } from './vanished-headings.js';
import { lineCount, rewriteDates, splitSection, SUB_INDEX_SIZE, TYPE_TITLE, typeFromFileName, type IndexStats, type PlanState, type Pointer, type RefactorPlan } from './state.js';

type Entry = {
  type: MemoryType | 'other';
  section: string;
  /** The pointer line (with the detail lines kept under a file left alone). */
  line: string;
  title: string;
  target: string;
  /** YYYY-MM-DD the memory says it was last changed ('' when it does not say): newest stay in MEMORY.md first. */
  recency: string;
  /** A line left where it was (moving it would lose words): always in MEMORY.md. */
  kept?: boolean;
};

const TYPE_ORDER = ['user', 'feedback', 'project', 'reference', 'other'] as const;

/**
 * Last phase: the new index (every topic file once, pointers under the
 * section they were in, the rest grouped by type, one short line each) and
 * the changed files. When the pointers do not fit in what the agent loads
 * (200 lines, 25,000 characters), the second level is partial: MEMORY.md keeps
 * direct pointers for as many memories as fit — feedback and user first, then
 * the most recently changed — and points to per-type sub-indexes for the rest.
 */
export function renderIndex(state: PlanState): RefactorPlan {
  const maxLine = state.options.maxLineLength ?? INDEX_LINE_MAX;
  const entries = indexEntries(state, maxLine);
  const changes = new Map<string, string | null>();
  const head = [state.title ?? '# Memory', '', ...(state.topLine ? [state.topLine, ''] : [])];
  const fits = (text: string) => lineCount(text) <= INDEX_MAX_LINES && text.trim().length <= INDEX_MAX_BYTES;
  const wantedSubIndexes = new Map<string, string>();
  let indexOut = [...head, ...renderGroups(entries)];
  if (!fits(indexOut.join('\n'))) {
    // Most important first; ties by file name, so a second run (reading the sub-indexes back) picks the same.
    const ranked = [...entries].sort((a, b) => priority(a) - priority(b) || (a.recency < b.recency ? 1 : a.recency > b.recency ? -1 : 0) || (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
    const layout = (direct: number) => {
      const kept = new Set(ranked.slice(0, direct));
      const subIndexes = subIndexFiles(
        entries.filter((e) => !kept.has(e)),
        maxLine,
      );
      const lines = [...head, ...renderGroups(entries.filter((e) => kept.has(e))), '## More memories', ...subIndexes.map((s) => s.pointer)];
      return { lines, subIndexes };
    };
    // The largest number of direct pointers that still fits (the layout grows with it).
    let low = 0;
    let high = ranked.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fits(layout(mid).lines.join('\n'))) low = mid;
      else high = mid - 1;
    }
    const chosen = layout(low);
    indexOut = chosen.lines;
    for (const sub of chosen.subIndexes) wantedSubIndexes.set(sub.path, sub.content);
  }
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
  if (!fits(newIndex)) state.warnings.push({ path: INDEX_FILE, message: `still ${lineCount(newIndex)} lines, ${newIndex.length.toLocaleString('en-US')} characters` });
  const { blockTexts: blocks, operations, dropped, warnings } = state;
  return { blocks, operations, changes, dropped, warnings, before: indexStats(state.indexText), after: indexStats(newIndex) };
}

const priority = (e: Entry) => (e.kept ? -1 : e.type === 'feedback' || e.type === 'user' ? 0 : 1);

/**
 * Entries under their section headings (or their type's), groups in order of
 * first appearance; nested sections keep their heading levels, and a heading
 * shared with the previous group is not repeated.
 */
function renderGroups(entries: Entry[]): string[] {
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
    if (out.length && out[out.length - 1] !== '') out.push('');
    out.push(...path.slice(shared).map((heading, i) => `${'#'.repeat(Math.min(6, 2 + shared + i))} ${heading}`));
    // An empty section is its heading alone.
    out.push(...group.map((e) => e.line).filter(Boolean));
    previous = path;
  }
  return out;
}

/** The memories that do not fit in MEMORY.md, in files of at most SUB_INDEX_SIZE pointers per type. */
function subIndexFiles(rest: Entry[], maxLine: number): Array<{ path: string; content: string; pointer: string }> {
  const files: Array<{ path: string; content: string; pointer: string }> = [];
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
      const body = renderGroups(chunk);
      const content = serializeTopicFile(newTopicFile({ name, description: clip(`Index of ${what}`, 150), type: 'reference' }, body.join('\n')));
      const pointer = renderPointer({ title: name, target: path, hook: clip(what, Math.max(20, maxLine - path.length - name.length - 10)) });
      files.push({ path, content, pointer });
    }
  }
  return files;
}

/** A link target as Markdown needs it: only what would end the link is escaped, other scripts stay readable. */
function linkTarget(path: string): string {
  return path.replace(/[%\s()<>[\]]/g, (c) => encodeURIComponent(c));
}

/** One index line per surviving topic file, with its type and section. */
function indexEntries(state: PlanState, maxLine: number): Entry[] {
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
  const keptTargets = new Set(state.keptLines.map((k) => k.target));
  // Every topic file gets a pointer, also one memdir leaves alone (the file stays as it is; the index is memdir's).
  for (const topic of [...state.topics.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (byTarget.has(topic.path) || keptTargets.has(topic.path)) continue;
    const fields = memoryFields(topic.file.frontmatter?.data ?? {});
    const title = fields.name?.trim() || topic.path.replace(/^.*\//, '').replace(/\.md$/i, '').replace(/[_-]+/g, ' ');
    byTarget.set(topic.path, { title, target: topic.path, hook: fields.description ?? '', raw: '', section: '' });
  }
  const entries: Entry[] = state.keptLines.map((k) => ({ type: 'other', section: k.section, line: k.raw, title: '', target: k.target ?? '', recency: '', kept: true }));
  for (const pointer of byTarget.values()) {
    const topic = state.topics.get(pointer.target);
    const fields = memoryFields(topic?.file.frontmatter?.data ?? {});
    const type: Entry['type'] = isMemoryType(fields.type) ? fields.type : (topic?.leftAlone && typeFromFileName(pointer.target)) || 'other';
    const base = { type, section: pointer.section, title: pointer.title, target: pointer.target, recency: recencyOf(pointer.target, topic?.file) };
    if ((!topic || topic.broken) && pointer.raw) {
      // Its pointer (and any detail lines under it) stays exactly as written.
      entries.push({ ...base, line: [pointer.raw, ...(state.detailsKept.get(pointer.target) ?? [])].join('\n') });
      continue;
    }
    // Only a file memdir can edit takes the text a shortened line leaves out; other lines stay whole.
    const editable = topic !== undefined && !topic.broken && !topic.leftAlone;
    let line = pointer.raw && (pointer.raw.length <= maxLine || !editable) ? pointer.raw : renderPointer({ title: pointer.title, target: linkTarget(pointer.target), hook: pointer.hook });
    if (line.length > maxLine && editable) {
      const title = clip(pointer.title, 60);
      const target = linkTarget(pointer.target);
      line = renderPointer({ title, target, hook: clip(pointer.hook, Math.max(20, maxLine - 10 - title.length - target.length)) });
      // The title and hook text the index no longer shows live on at the top of the file.
      const hook = type === 'project' ? rewriteDates(state, topic.path, pointer.hook, topic.dateFacts) : pointer.hook;
      topic.file = withLead(topic.file, pointer.title.replace(/\\(.)/g, '$1'), hook);
    }
    entries.push({ ...base, line });
  }
  return entries;
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The file with the index's title (as a heading) and hook (as its opening
 * paragraph) on top of the body, each only when the body does not already
 * say it (a description that says the same is metadata, not the text the
 * index showed); a clipped text counts as said when what it kept is there.
 */
function withLead(file: TopicFile, title: string, hook: string): TopicFile {
  const text = squeeze(file.body);
  const missing = (s: string) => {
    const kept = squeeze(s.replace(/…$/, ''));
    return kept !== '' && !text.includes(kept);
  };
  const lead = [missing(title) ? `# ${title}` : '', missing(hook) ? hook : ''].filter(Boolean);
  if (lead.length === 0) return file;
  const eol = file.eol;
  const body = file.body.replace(/^\s+/, '');
  // After the body's own first heading, if it opens with one.
  const heading = /^#{1,6}[ \t].*(?:\r?\n|$)/.exec(body)?.[0] ?? '';
  return withBody(
    file,
    `${eol}${heading ? `${heading.trimEnd()}${eol}${eol}` : ''}${lead.join(`${eol}${eol}`)}${eol}${eol}${body.slice(heading.length).replace(/^\s+/, '')}`.replace(/(\r?\n)+$/, eol),
  );
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
