import fs from 'node:fs';
import path from 'node:path';
import { memoryFields, parseTopicFile } from '../core/topic-file.js';
import { listTopicFiles } from '../store/scan.js';
import type { RecallDoc } from './rank.js';

/**
 * Every topic file of the directory, read whole (the local engine ranks on
 * bodies too, so it indexes all files, not only the newest 200). Binary or
 * unreadable files are skipped.
 */
export function loadDocs(dir: string): RecallDoc[] {
  const docs: RecallDoc[] = [];
  for (const rel of listTopicFiles(dir).files) {
    const file = path.join(dir, rel);
    let text: string;
    let mtimeMs: number;
    try {
      // By path, not by descriptor: Node reads a whole UTF-8 file by path in one native call.
      text = fs.readFileSync(file, 'utf8');
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      continue;
    }
    if (text.includes('\u0000')) continue;
    const { file: topic } = parseTopicFile(text);
    const fields = memoryFields(topic.frontmatter?.data ?? {});
    docs.push({ path: rel, name: fields.name ?? rel.replace(/\.md$/, ''), description: fields.description ?? '', body: topic.body, type: fields.type ?? '', mtimeMs });
  }
  return docs;
}
