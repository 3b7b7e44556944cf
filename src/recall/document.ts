import { dateTerms } from '../core/dates.js';
import { tokenize } from '../core/tokenize.js';
import { memoryFields, parseTopicFile } from '../core/topic-file.js';

/**
 * The seam between loading and ranking: one memory as the ranker sees it,
 * built from a file's text by `documentFor` alone: its terms, not its text (the
 * prompt hook never needs the text of a memory it does not show, and the index
 * stays half the size; see `RankOptions.textOf`). The persistent index
 * (src/recall/index-file.ts) stores these as they are, keyed by the file's stat;
 * bump DOCUMENT_VERSION whenever the shape, the tokenizer or anything else
 * `documentFor` computes changes, so cached documents are rebuilt.
 */
export const DOCUMENT_VERSION = 10;

export const DOC_FIELDS = ['name', 'description', 'body'] as const;
export type DocField = (typeof DOC_FIELDS)[number];

export interface RecallDoc {
  path: string;
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

/** Term counts known ahead (the stored index): what `RecallIndex` would otherwise count in the documents' terms. */
export interface PostingSource {
  /** The documents holding `term`, as [slot, name count, description count, body count] per document, slots ascending. */
  postings(term: string): readonly number[];
  /** How many slots (documents) the source holds. */
  readonly slots: number;
  /** The slot of a document of this source; undefined for any other document. */
  slotOf(doc: RecallDoc): number | undefined;
}

/** The search terms of a text, for documents and queries alike: its words, then its absolute dates in one form. */
export function searchTerms(text: string): string[] {
  const terms = tokenize(text);
  for (const date of dateTerms(text)) terms.push(date);
  return terms;
}

/** What recall reads of a topic file: the frontmatter's name (else the file name), description and type, and the body. Pure. */
export function memoryParts(path: string, text: string): { name: string; description: string; type: string; body: string } {
  const { file } = parseTopicFile(text);
  const fields = memoryFields(file.frontmatter?.data ?? {});
  const name = fields.name ?? path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/, '');
  return { name, description: fields.description ?? '', type: fields.type ?? '', body: file.body };
}

/** The document of the topic file at `path` (relative to the memory directory) with text `text`. Pure. */
export function documentFor(path: string, text: string, mtimeMs: number): RecallDoc {
  const { name, description, type, body } = memoryParts(path, text);
  const [nameTerms, descriptionTerms, bodyTerms] = [searchTerms(name), searchTerms(description), searchTerms(body)];
  const terms = { name: nameTerms.join(' '), description: descriptionTerms.join(' '), body: bodyTerms.join(' ') };
  const lengths = { name: nameTerms.length, description: descriptionTerms.length, body: bodyTerms.length };
  return { path, type, mtimeMs, terms, lengths };
}

/** The terms of a field in order (`RecallDoc.terms` joins them with single spaces). */
export function termsOf(text: string): string[] {
  return text === '' ? [] : text.split(' ');
}

/**
 * Add the terms of `doc` (document `slot`) to `postings`: [slot, name count, description count,
 * body count] per document, in the order documents are added.
 */
export function addPostings(doc: RecallDoc, slot: number, postings: Map<string, number[]>): void {
  // Plain loops: a first prompt over 5,000 real memories adds some two million words here.
  for (let f = 0; f < DOC_FIELDS.length; f++) {
    const text = doc.terms[DOC_FIELDS[f]!];
    if (text === '') continue;
    for (const term of text.split(' ')) {
      let flat = postings.get(term);
      if (flat === undefined) postings.set(term, (flat = [slot, 0, 0, 0]));
      else if (flat[flat.length - 4] !== slot) flat.push(slot, 0, 0, 0);
      flat[flat.length - 3 + f]!++;
    }
  }
}
