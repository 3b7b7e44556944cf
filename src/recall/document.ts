import { dateTerms } from '../core/dates.js';
import { tokenize } from '../core/tokenize.js';
import { memoryFields, parseTopicFile } from '../core/topic-file.js';

/**
 * The seam between loading and ranking: one memory as the ranker sees it,
 * built from a file's text by `documentFor` alone. The persistent index
 * (src/recall/index-file.ts) stores these as they are, keyed by the file's stat;
 * bump DOCUMENT_VERSION whenever the shape, the tokenizer or anything else
 * `documentFor` computes changes, so cached documents are rebuilt.
 */
export const DOCUMENT_VERSION = 4;

export const DOC_FIELDS = ['name', 'description', 'body'] as const;
export type DocField = (typeof DOC_FIELDS)[number];

export interface RecallDoc {
  path: string;
  name: string;
  description: string;
  body: string;
  type: string;
  mtimeMs: number;
  /**
   * Each field's search terms in order (`searchTerms`), joined by single spaces (a term never
   * holds whitespace), computed once per file version. One string per field, in memory as in the
   * index file: the prompt hook ranks once per process, and finding a query's few terms in these
   * strings costs far less than splitting every memory into arrays first.
   */
  terms: Record<DocField, string>;
  /** How many terms each field holds (BM25's length), counted once per file version rather than on every prompt. */
  lengths: Record<DocField, number>;
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
  const [nameTerms, descriptionTerms, bodyTerms] = [searchTerms(name), searchTerms(description), searchTerms(body)];
  const terms = { name: nameTerms.join(' '), description: descriptionTerms.join(' '), body: bodyTerms.join(' ') };
  const lengths = { name: nameTerms.length, description: descriptionTerms.length, body: bodyTerms.length };
  return { path, name, description, body, type: fields.type ?? '', mtimeMs, terms, lengths };
}
