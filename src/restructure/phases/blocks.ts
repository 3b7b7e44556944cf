import { loadIndex } from '../../core/load-model.js';
import { ruleWords, standingRules } from '../../core/standing-rules.js';
import { INDEX_FILE } from '../../core/taxonomy.js';
import { newTopicFile, withBody } from '../../core/topic-file.js';
import { classifyPointerTarget } from '../../core/memory-index.js';
import { type Anchor, sectionAnchors } from '../../core/dates.js';
import { INDEX_LINE_MAX, INDEX_LINE_WARN } from '../../core/limits.js';
import { shortenHook } from '../../core/shorten-hook.js';
import { clip, hookFor, inferType, nameAndDescription } from '../classify.js';
import { freePath, type IndexBlock, type PlanState } from './state.js';

/** Phase 2: each inline block of the index becomes a topic file, named by the model's proposal or locally. */
export function blocksToTopics(state: PlanState): void {
  placePreamble(state);
  const sections = state.blocks.length ? sectionAnchors(state.indexText) : [];
  const load = state.blocks.length ? loadIndex(state.indexText) : undefined;
  const loaded = new Set(load ? load.fileLines.slice(0, load.loadedLines) : []);
  for (const [number, b] of state.blocks.entries()) {
    const text = blockText(b);
    state.blockTexts.push({ heading: b.heading, text });
    const proposal = state.options.proposals?.get(number);
    const type = proposal?.type ?? inferType(text, b.heading);
    const local = proposal ? undefined : nameAndDescription(text, b.heading);
    const name = proposal?.name ?? local!.name;
    const description = proposal?.description ?? local!.description;
    const path = freePath(state, type, name);
    // The block's heading stays on top of its body: a sub-section heading is part of what it says.
    const body = b.rawHeading ? `## ${b.rawHeading}\n\n${text}` : text;
    const first = b.lines[0]!.line;
    // Its relative dates keep the date of the index section they were written under.
    const anchored = indexAnchored(state, sections[b.lines[0]!.line - 1]);
    state.topics.set(path, { path, file: newTopicFile({ name, description, type }, body), originalText: undefined, ...anchored, broken: false });
    state.pointers.push({ title: name, target: path, hook: withRules(hookFor(name, description), b, loaded, name, path), raw: '', section: b.section });
    state.operations.push({ kind: 'create', path, type, source: `${INDEX_FILE} lines ${first}–${b.lines[b.lines.length - 1]!.line}` });
  }
}

/** Where a topic file for the index's own conventions goes; a real name, never the preamble's first words. */
export const CONVENTIONS_FILE = 'reference_memory_conventions.md';

/**
 * Text about the index itself is not a memory: one short line stays under the
 * index's title; more moves to reference_memory_conventions.md (appended when
 * that file already exists).
 */
function placePreamble(state: PlanState): void {
  const lines = state.preamble.flatMap((b) => b.lines).filter((l) => l.kind !== 'blank');
  if (lines.length === 0) return;
  const source = `${INDEX_FILE} lines ${lines[0]!.line}–${lines[lines.length - 1]!.line}`;
  // A link in it would read as a pointer (often a dead one: an example of the format).
  const [only] = state.preamble;
  if (lines.length === 1 && state.preamble.length === 1 && !only!.rawHeading && lines[0]!.raw.trim().length <= INDEX_LINE_MAX && !/\]\(/.test(lines[0]!.raw)) {
    state.topLine = lines[0]!.raw.trim();
    state.operations.push({ kind: 'preamble', path: INDEX_FILE, source, action: 'kept as the line under the title' });
    return;
  }
  const text = state.preamble.map((b) => (b.rawHeading ? `## ${b.rawHeading}\n\n${blockText(b)}` : blockText(b))).join('\n\n');
  const existing = state.topics.get(CONVENTIONS_FILE);
  let path = CONVENTIONS_FILE;
  if (existing && !existing.broken) {
    const eol = existing.file.eol;
    existing.file = withBody(existing.file, `${existing.file.body.replace(/\s*$/, '')}${eol}${eol}${text.replace(/\n/g, eol)}${eol}`);
  } else {
    if (existing || state.taken.has(path)) path = freePath(state, 'reference', 'memory conventions');
    state.taken.add(path);
    const file = newTopicFile({ name: 'Memory conventions', description: 'How this directory and its index are kept; read before adding or editing a memory', type: 'reference' }, text);
    state.topics.set(path, { path, file, originalText: undefined, ...indexAnchored(state), broken: false });
  }
  state.operations.push({ kind: 'preamble', path, source, action: 'moved to a topic file' });
}

/** A topic file made from index text was written when the index was (or its section says). */
function indexAnchored(state: PlanState, sectionDate?: Anchor) {
  const { date, source } = state.indexAnchor;
  return { anchor: date, anchorSource: source, dateFacts: { ...state.indexFacts, sectionDate: sectionDate ?? state.indexFacts.sectionDate } };
}

function blockText(b: IndexBlock): string {
  const lines = b.lines.map((l) => l.raw);
  while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
  return lines.join('\n');
}

/** Phase 3: a pointer whose file is missing is all that is left of that memory; it is kept as a file. */
export function keepDeadPointers(state: PlanState): void {
  for (const pointer of state.pointers) {
    if (state.topics.has(pointer.target) || !pointer.target.endsWith('.md') || classifyPointerTarget(pointer.target).kind !== 'file') continue;
    const type = inferType(`${pointer.title} ${pointer.hook}`, '');
    const description = pointer.hook.length >= 20 ? pointer.hook : clip(`${pointer.title}: ${pointer.hook || 'recreated from the memory index'}`, 140);
    state.topics.set(pointer.target, {
      path: pointer.target,
      file: newTopicFile({ name: pointer.title, description, type }, `${pointer.hook || pointer.title}\n\n(The index pointed here but the file was missing; memdir refactor kept the pointer's text.)`),
      originalText: undefined,
      ...indexAnchored(state),
      broken: false,
    });
    state.operations.push({ kind: 'create', path: pointer.target, type, source: 'dead pointer in the index' });
  }
}

/** Phase 4: detail lines nested under a pointer move into that pointer's file; under a file left alone they stay in the index. */
export function moveDetails(state: PlanState): void {
  for (const [target, lines] of state.details) {
    const topic = state.topics.get(target);
    if (!topic || topic.broken) {
      // No file memdir can edit to take them: they stay under their pointer, left for the user.
      state.detailsKept.set(target, lines);
      state.warnings.push({ path: INDEX_FILE, message: `${lines.length} detail line(s) under the pointer to ${target} stay in the index: memdir cannot edit that file` });
      continue;
    }
    const body = topic.file.body.replace(/\s*$/, '');
    topic.file = withBody(topic.file, `${body}\n\n${lines.join('\n')}\n`.replace(/\n/g, topic.file.eol));
    state.operations.push({ kind: 'append', path: target, lines: lines.length, source: `detail lines under its pointer in ${INDEX_FILE}` });
  }
}

/**
 * The hook of a block's new pointer: the standing rules the agent read in the block (a topic file
 * is read only when opened, so they stay in what the index shows), then the description.
 */
function withRules(hook: string, block: IndexBlock, loaded: ReadonlySet<number>, title: string, path: string): string {
  const said = new Set(ruleWords(hook));
  const rules: string[] = [];
  for (const rule of block.lines.filter((l) => loaded.has(l.line)).flatMap((l) => standingRules(l.raw))) {
    // A rule the description (or an earlier rule) already says is not said twice.
    if (rule.words.every((w) => said.has(w))) continue;
    for (const w of rule.words) said.add(w);
    rules.push(rule.clause.replace(/\*\*/g, '').replace(/[.;:]+$/, ''));
  }
  if (rules.length === 0) return hook;
  // Within Claude Code's ~200 characters when it can be: the description gives way before a rule.
  const room = INDEX_LINE_WARN - `- [${title}](${path}) — `.length;
  const both = shortenHook(`${rules.join('; ')} — ${hook}`, room, title);
  return both.length <= room ? both : rules.join('; ');
}
