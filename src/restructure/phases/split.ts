import { TOPIC_MAX_LINES } from '../../core/limits.js';
import { isMemoryType, type MemoryType } from '../../core/taxonomy.js';
import { memoryFields, newTopicFile, serializeTopicFile, withBody } from '../../core/topic-file.js';
import { clip } from '../classify.js';
import { freePath, lineCount, type PlanState } from './state.js';

/** Phase 7: topic files over 200 lines split at their headings. */
export function splitLongTopics(state: PlanState): void {
  for (const topic of [...state.topics.values()]) {
    if (topic.broken || lineCount(serializeTopicFile(topic.file)) <= TOPIC_MAX_LINES) continue;
    // Room for the frontmatter, and for the title and hook the index may place on top (render-index).
    const frontmatterLines = lineCount(serializeTopicFile(topic.file)) - lineCount(topic.file.body);
    const parts = splitAtHeadings(topic.file.body, TOPIC_MAX_LINES - frontmatterLines - 10);
    if (parts.length < 2) {
      state.warnings.push({ path: topic.path, message: `over ${TOPIC_MAX_LINES} lines with no headings to split at` });
      continue;
    }
    const fields = memoryFields(topic.file.frontmatter?.data ?? {});
    const type = (isMemoryType(fields.type) ? fields.type : 'project') as MemoryType;
    topic.file = withBody(topic.file, parts[0]!);
    const created: string[] = [];
    parts.slice(1).forEach((part, i) => {
      const name = `${fields.name ?? topic.path} (part ${i + 2})`;
      const path = freePath(state, type, name);
      const description = clip(`${fields.description ?? name} — continued, part ${i + 2} of ${parts.length}`, 150);
      state.topics.set(path, { ...topic, path, file: newTopicFile({ name, description, type }, part), originalText: undefined });
      state.pointers.push({ title: name, target: path, hook: description, raw: '', section: '' });
      created.push(path);
    });
    state.operations.push({ kind: 'split', path: topic.path, parts: created });
  }
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
