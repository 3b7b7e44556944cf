import { INDEX_FILE } from '../../core/taxonomy.js';
import { newTopicFile, withBody } from '../../core/topic-file.js';
import { classifyPointerTarget } from '../../core/memory-index.js';
import { clip, firstSentence, inferType, plainText } from '../classify.js';
import { freePath, type PlanState } from './state.js';

/** Phase 2: each inline block of the index becomes a topic file, named by the model's proposal or locally. */
export function blocksToTopics(state: PlanState): void {
  for (const [number, b] of state.blocks.entries()) {
    const lines = b.lines.map((l) => l.raw);
    while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
    const text = lines.join('\n');
    state.blockTexts.push({ heading: b.heading, text });
    const proposal = state.options.proposals?.get(number);
    const type = proposal?.type ?? inferType(text, b.heading);
    const name = proposal?.name ?? clip(b.heading || firstSentence(text, 60) || 'Notes from the index', 60);
    let description = proposal?.description ?? firstSentence(text, 140);
    if (description.length < 20 || description.toLowerCase() === name.toLowerCase()) description = clip(`${name}: ${plainText(text)}`, 140);
    if (description.toLowerCase() === name.toLowerCase()) description = `${name} (moved from the memory index)`;
    const path = freePath(state, type, name);
    // A heading the name could not hold whole (too long, or markup) stays as the body's first line.
    const body = b.rawHeading && b.rawHeading !== name ? `## ${b.rawHeading}\n\n${text}` : text;
    const first = b.lines[0]!.line;
    const { date, source } = state.indexAnchor;
    state.topics.set(path, { path, file: newTopicFile({ name, description, type }, body), originalText: undefined, anchor: date, anchorSource: source, broken: false });
    state.pointers.push({ title: name, target: path, hook: description, raw: '', section: b.rawHeading });
    state.operations.push({ kind: 'create', path, type, source: `${INDEX_FILE} lines ${first}–${b.lines[b.lines.length - 1]!.line}` });
  }
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
      anchor: state.indexAnchor.date,
      anchorSource: state.indexAnchor.source,
      broken: false,
    });
    state.operations.push({ kind: 'create', path: pointer.target, type, source: 'dead pointer in the index' });
  }
}

/** Phase 4: detail lines nested under a pointer move into that pointer's file; under a file left alone they stay in the index. */
export function moveDetails(state: PlanState): void {
  for (const [target, lines] of state.details) {
    const topic = state.topics.get(target);
    if (topic?.leftAlone) {
      state.detailsKept.set(target, lines);
      continue;
    }
    if (!topic || topic.broken) {
      for (const line of lines) state.dropped.push({ text: line, reason: 'detail under a pointer whose file cannot be edited', source: INDEX_FILE });
      continue;
    }
    const body = topic.file.body.replace(/\s*$/, '');
    topic.file = withBody(topic.file, `${body}\n\n${lines.join('\n')}\n`.replace(/\n/g, topic.file.eol));
    state.operations.push({ kind: 'append', path: target, lines: lines.length, source: `detail lines under its pointer in ${INDEX_FILE}` });
  }
}
