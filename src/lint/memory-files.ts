import type { TopicSource } from '../core/dir-model.js';

/** Hand-off notes, read-mes and logs kept beside the memories: without frontmatter they are not memories. */
const NOT_A_MEMORY = /^(?:last[_-]?session|session[_-]?handoff|handoff|readme|todo|changelog)(?:[_-][\w-]*)?\.md$/i;

/** A folder of retired notes (`archive/`, `_archive/`, `archived/`): kept out of the index on purpose. */
const ARCHIVE_FOLDER = /(?:^|\/)[._]?archived?\//i;

/** A file with a memory type, or any file not named like a hand-off note, README or log and not in an archive folder. */
export function isMemory(topic: TopicSource): boolean {
  return typeof topic.fields.type === 'string' || !(NOT_A_MEMORY.test(topic.path.replace(/^.*\//, '')) || ARCHIVE_FOLDER.test(topic.path));
}
