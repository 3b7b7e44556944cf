import { classifyPointerTarget, parseMemoryIndex, pointerPath } from '../../core/memory-index.js';
import { INDEX_FILE } from '../../core/taxonomy.js';
import { parseTopicFile } from '../../core/topic-file.js';
import { plainText } from '../classify.js';
import { SUB_INDEX, TYPE_TITLE, type PlanState, type Pointer } from './state.js';

const TYPE_TITLES = new Set(Object.values(TYPE_TITLE));

/**
 * Phase 1: read MEMORY.md (and the sub-indexes of a two-level layout, their
 * headings and pointers only) into pointers, the detail lines nested under
 * them, and the inline blocks of each section.
 */
export function readIndex(state: PlanState): void {
  const seenTargets = new Set<string>();
  let section = '';
  let rawHeading = '';
  let lastPointer: Pointer | undefined;
  let block: PlanState['blocks'][number] | undefined;
  const documents = [state.parsedIndex.lines];
  for (const sub of state.subIndexes) {
    documents.push(parseMemoryIndex(parseTopicFile(state.files.get(sub)!.text).file.body).lines.filter((l) => l.kind === 'pointer' || l.kind === 'heading'));
  }
  for (const [number, lines] of documents.entries()) {
    if (number > 0) {
      section = '';
      rawHeading = '';
      block = undefined;
      lastPointer = undefined;
    }
    for (const line of lines) {
      if (line.kind === 'heading') {
        if (line.level === 1 && state.title === undefined && state.pointers.length === 0 && state.blocks.length === 0) state.title = line.raw;
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
          state.dropped.push({ text: line.raw, reason: 'duplicate pointer to the same file', source: `${INDEX_FILE}:${line.line}` });
          continue;
        }
        seenTargets.add(target);
        const pointer = { title: line.title, target, hook: line.hook, raw: line.raw, section: section ? rawHeading : '' };
        state.pointers.push(pointer);
        lastPointer = pointer;
        continue;
      }
      if (lastPointer && line.kind === 'list' && /^\s+/.test(line.raw)) {
        state.details.set(lastPointer.target, [...(state.details.get(lastPointer.target) ?? []), line.raw]);
        continue;
      }
      lastPointer = undefined;
      if (!block) {
        block = { heading: section, rawHeading: section ? rawHeading : '', lines: [] };
        state.blocks.push(block);
      }
      block.lines.push(line);
    }
  }
}
