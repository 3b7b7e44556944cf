/**
 * The claude engine's operations and the checks each must pass before anything is written:
 * the taxonomy, a topic-file name inside the directory, no secret, nothing derivable from the
 * code or git, absolute dates, a name and description not cut with "…", and no update or delete
 * of a file the manifest did not list. A **Why:** or **How to apply:** line that says nothing of
 * its memory (generic, or the same in two operations) is dropped.
 * Pure: the manifest and the messages' time come in as arguments.
 */
import path from 'node:path';
import { findRelativeDates } from '../core/dates.js';
import { withoutControlCharacters } from '../core/plain-text.js';
import { isGeneratedLine } from '../core/generated-text.js';
import { poisoningProblem } from '../core/poisoning.js';
import { findSecrets } from '../core/secrets.js';
import { INDEX_FILE, isMemoryType, STATE_DIR, type MemoryType } from '../core/taxonomy.js';

export type OperationKind = 'create' | 'update' | 'delete';

export interface MemoryOperation {
  op: OperationKind;
  /** Topic file, relative to the memory directory. */
  file: string;
  name: string;
  description: string;
  type: MemoryType;
  body: string;
  /** Uuids of the transcript messages it comes from. */
  sources: string[];
  /** Why it exists: the user asked for it, the local rules inferred it, or the model proposed it. */
  basis: OperationBasis;
}

export type OperationBasis = 'request' | 'inferred' | 'model';

export interface RejectedOperation {
  op: string;
  file: string;
  reason: string;
  sources: string[];
}

export const OPERATIONS_SCHEMA = {
  type: 'object',
  properties: {
    operations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: ['create', 'update', 'delete'] },
          file: { type: 'string' },
          name: { type: 'string' },
          description: { type: 'string' },
          type: { type: 'string', enum: ['user', 'feedback', 'project', 'reference'] },
          body: { type: 'string' },
          sources: { type: 'array', items: { type: 'string' } },
        },
        required: ['op', 'file'],
      },
    },
  },
  required: ['operations'],
} as const;

const SAFE_FILE = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*\/)*[A-Za-z0-9][A-Za-z0-9._-]*\.md$/;
// Derivable content: file:line citations and commit hashes go stale and git or the code has them.
const FILE_LINE_CITATION = /[\w.-]+\.[A-Za-z]{1,6}:\d+\b/;
const COMMIT_HASH = /\b(?:commit|sha|revert(?:ed|s)?|fixed in|landed in)\s+`?[0-9a-f]{7,40}\b/i;

// What the model quotes from a pasted terminal keeps its escape sequences: they are dropped, not a reason to refuse.
const text = (value: unknown) => (typeof value === 'string' ? withoutControlCharacters(value) : '');

function fileProblem(file: string): string | undefined {
  if (!SAFE_FILE.test(file) || file.split('/').some((part) => part === '..' || part === '.')) return 'file must be a simple .md name inside the memory directory';
  if (path.posix.normalize(file) !== file || file === INDEX_FILE || file.split('/')[0] === STATE_DIR) return 'file must be a topic file inside the memory directory';
  return undefined;
}

function contentProblem(op: Record<string, unknown>, anchor: Date): string | undefined {
  if (!isMemoryType(op.type)) return `type "${text(op.type)}" is not one of user, feedback, project, reference`;
  for (const field of ['name', 'description', 'body'] as const) if (!text(op[field]).trim()) return `${field} is empty`;
  for (const field of ['name', 'description'] as const) if (/[\p{Cc}\u2028\u2029]/u.test(text(op[field]))) return `${field} must be one line`;
  const all = `${text(op.name)}\n${text(op.description)}\n${text(op.body)}`;
  const secret = findSecrets(all)[0];
  if (secret) return `holds a secret (${secret.rule.id})`;
  const poisoned = poisoningProblem(all);
  if (poisoned) return poisoned;
  if (FILE_LINE_CITATION.test(all) || COMMIT_HASH.test(all)) return 'holds what the code or git history already says (a file:line citation or a commit hash)';
  const relative = findRelativeDates(all, anchor)[0];
  if (relative) return `relative date "${relative.text}"; write ${relative.replacement}`;
  for (const field of ['name', 'description'] as const) if (/(?:…|\.\.\.)\s*$/.test(text(op[field]))) return `${field} is cut ("…"); write it whole`;
  return undefined;
}

// A reason line: its label and sentence.
const REASON_LINE = /^\s*\*\*(?:Why|How to apply):?\*\*:?\s*(.*?)\s*$/i;
// Words that name nothing about a memory: "the user asked for this", "follow this in future sessions".
const EMPTY_WORDS = new Set(
  (
    "a an the this that it its these those user users user's they them he she we our you your asked asks ask requested request requests wants want wanted said says say " +
    'stated told explicitly so for to be is was are been kept keep keeping remember remembered mind note noted follow following apply applying applies use take account ' +
    'into in on at of and or as when whenever where relevant future sessions session every all always each going forward from now later work working task tasks project ' +
    'projects repo repository codebase this preference preferences preferred rule rules instruction instructions guideline guidelines convention unless otherwise ' +
    "consider considered mentioned memory memories context should must will would do does related similar situations situation cases case same thing things it's"
  ).split(' '),
);

/** A reason sentence made only of words that name nothing (or one of memdir's old default sentences). */
export function isEmptyReason(line: string): boolean {
  const match = REASON_LINE.exec(line);
  if (!match) return false;
  if (isGeneratedLine(line)) return true;
  const words = match[1]!.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  return words.length > 0 && words.every((word) => EMPTY_WORDS.has(word) || /^\d{4}$|^\d{1,2}$/.test(word));
}

/** The operations without the Why and How to apply lines that say nothing: generic ones, and those two operations share word for word. */
function withoutEmptyReasons(operations: MemoryOperation[]): MemoryOperation[] {
  const sentence = (line: string) => REASON_LINE.exec(line)?.[1]?.replace(/\s+/g, ' ').toLowerCase();
  const count = new Map<string, number>();
  for (const operation of operations)
    for (const line of new Set(
      operation.body
        .split('\n')
        .map((l) => (REASON_LINE.test(l) ? l.trim().toLowerCase().replace(/\s+/g, ' ') : ''))
        .filter(Boolean),
    ))
      count.set(line, (count.get(line) ?? 0) + 1);
  return operations.map((operation) => {
    const lines = operation.body.split('\n');
    const kept = lines.filter((line) => {
      if (!sentence(line)) return true;
      return !isEmptyReason(line) && (count.get(line.trim().toLowerCase().replace(/\s+/g, ' ')) ?? 0) < 2;
    });
    if (kept.length === lines.length) return operation;
    return {
      ...operation,
      body: kept
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    };
  });
}

/**
 * Sort the model's operations into valid ones and rejected ones (with the reason). `manifest`
 * holds the files the model was shown; `anchor` is the time of the newest message, against which
 * a relative date would have had to be resolved.
 */
export function checkOperations(raw: unknown[], manifest: ReadonlySet<string>, anchor: Date): { valid: MemoryOperation[]; rejected: RejectedOperation[] } {
  const valid: MemoryOperation[] = [];
  const rejected: RejectedOperation[] = [];
  const touched = new Set<string>();
  for (const item of raw) {
    const op = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const kind = text(op.op);
    const file = text(op.file);
    const sources = Array.isArray(op.sources) ? op.sources.filter((s): s is string => typeof s === 'string') : [];
    const reject = (reason: string) => rejected.push({ op: kind, file, reason, sources });
    if (kind !== 'create' && kind !== 'update' && kind !== 'delete') {
      reject(`unknown operation "${kind}"`);
      continue;
    }
    const problem =
      fileProblem(file) ??
      (touched.has(file) ? 'the same file is changed twice' : undefined) ??
      (kind === 'create' && manifest.has(file) ? 'the file exists; an update must name it' : undefined) ??
      (kind !== 'create' && !manifest.has(file) ? `${kind} of a file that is not in the manifest` : undefined) ??
      (kind === 'delete' ? undefined : contentProblem(op, anchor));
    if (problem) {
      reject(problem);
      continue;
    }
    touched.add(file);
    valid.push({
      op: kind,
      file,
      name: text(op.name).trim(),
      description: text(op.description).trim(),
      type: isMemoryType(op.type) ? op.type : 'project',
      body: text(op.body).trim(),
      sources,
      basis: 'model',
    });
  }
  return { valid: withoutEmptyReasons(valid), rejected };
}
