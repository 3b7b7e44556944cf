import { dateTerms } from '../core/dates.js';
import { tokenize } from '../core/tokenize.js';
import { memoryFields, parseTopicFile } from '../core/topic-file.js';

/**
 * The seam between loading and ranking: one memory as the ranker sees it,
 * built from a file's text by `documentFor` alone. The persistent index
 * (src/recall/index-file.ts) stores these (terms space-joined), keyed by the file's stat;
 * bump DOCUMENT_VERSION whenever the shape, the tokenizer or anything else
 * `documentFor` computes changes, so cached documents are rebuilt.
 */
export const DOCUMENT_VERSION = 2;

export const DOC_FIELDS = ['name', 'description', 'body'] as const;
export type DocField = (typeof DOC_FIELDS)[number];

export interface RecallDoc {
  path: string;
  name: string;
  description: string;
  body: string;
  type: string;
  mtimeMs: number;
  /** Each field's search terms in order (`tokenize`), computed once per file version. */
  tokens: Record<DocField, string[]>;
}

/** The search terms of a text, for documents and queries alike: its words, then its absolute dates in one form. */
export function searchTerms(text: string): string[] {
  return [...tokenize(text), ...dateTerms(text)];
}

/** The document of the topic file at `path` (relative to the memory directory) with text `text`. Pure. */
export function documentFor(path: string, text: string, mtimeMs: number): RecallDoc {
  const { file } = parseTopicFile(text);
  const fields = memoryFields(file.frontmatter?.data ?? {});
  const name = fields.name ?? path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/, '');
  const description = fields.description ?? '';
  const body = file.body;
  return { path, name, description, body, type: fields.type ?? '', mtimeMs, tokens: { name: searchTerms(name), description: searchTerms(description), body: searchTerms(body) } };
}
