/**
 * `memdir extract --review | --accept ID | --discard ID`: the candidates the Stop hook's mode kept
 * aside (src/extract/candidates.ts), listed with why they were not saved, saved as a run would
 * have saved them, or dropped. Accept and discard hold the extract run lock, as a run does.
 */
import { RefusedError, UsageError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { shellWord } from '../core/shell-word.js';
import type { Output } from '../shell/output.js';
import { withDirLock } from '../store/lock.js';
import { type ExtractCandidate, readCandidates, removeCandidate } from './candidates.js';
import { type AppliedOperation, saveStatements } from './extract.js';
import type { RejectedOperation } from './operations.js';
import { RUN_LOCK } from './state.js';

export type ReviewAction = { review: true } | { accept: string } | { discard: string };

export interface AcceptResult {
  candidate: ExtractCandidate;
  operations: AppliedOperation[];
  rejected: RejectedOperation[];
}

/** The candidates waiting for review. */
export { readCandidates as listCandidates };

function find(dir: string, id: string): ExtractCandidate {
  const candidate = readCandidates(dir).find((c) => c.id === id);
  if (!candidate) throw new UsageError(messages.extractUnknownCandidate(id));
  return candidate;
}

/**
 * Save candidate `id` as the run would have; it leaves the file once saved. Refused (exit 1, the
 * candidate stays) when the save is: the project's instructions already say it, an existing memory
 * holds it, a field is invalid.
 */
export function acceptCandidate(dir: string, id: string, projectDir: string | undefined): Promise<AcceptResult> {
  find(dir, id); // an unknown id fails before any lock (or state folder) is made
  return withDirLock(
    dir,
    async () => {
      const candidate = find(dir, id);
      const { statement, why, type, kind } = candidate;
      const saved = await saveStatements({ dir, projectDir, sessionId: candidate.sessionId }, [
        { found: { statement, why, type, kind }, uuid: candidate.messageUuid, timestamp: candidate.messageTime },
      ]);
      if (saved.operations.length === 0) throw new RefusedError(messages.extractCandidateNotSaved(id, saved.rejected.map((r) => r.reason).join('; ') || 'nothing to write'));
      removeCandidate(dir, id);
      return { candidate, ...saved };
    },
    { name: RUN_LOCK },
  );
}

/** Drop candidate `id` without saving it. */
export function discardCandidate(dir: string, id: string): Promise<ExtractCandidate> {
  find(dir, id);
  return withDirLock(
    dir,
    () => {
      const candidate = find(dir, id);
      removeCandidate(dir, id);
      return candidate;
    },
    { name: RUN_LOCK },
  );
}

/** The shell-quoted `--dir` to repeat in the commands printed, when one was given. */
const dirFlag = (dir: string | undefined) => (dir ? ` --dir ${shellWord(dir)}` : '');

export async function runReview(action: ReviewAction, context: { dir: string; dirFlag: string | undefined; projectDir: string | undefined; json: boolean }, output: Output): Promise<number> {
  const { dir } = context;
  if ('accept' in action) {
    const result = await acceptCandidate(dir, action.accept, context.projectDir);
    if (context.json) output.json({ accepted: result.candidate, operations: result.operations, rejected: result.rejected });
    else for (const o of result.operations) output.out(messages.extractCandidateAccepted(action.accept, o.file));
    return 0;
  }
  if ('discard' in action) {
    const candidate = await discardCandidate(dir, action.discard);
    if (context.json) output.json({ discarded: candidate });
    else output.out(messages.extractCandidateDiscarded(action.discard));
    return 0;
  }
  const candidates = readCandidates(dir);
  if (context.json) {
    output.json({ candidates });
    return 0;
  }
  if (candidates.length === 0) output.info(messages.extractNoCandidates());
  const flag = dirFlag(context.dirFlag);
  for (const c of candidates) {
    output.out(`${c.id}  ${c.statement.replace(/\s+/g, ' ')}  (${c.reason})`);
    for (const line of c.sessionNotes?.lines ?? []) output.out(`  session notes: ${line.slice(2)}`);
    output.out(`  memdir extract --accept ${c.id}${flag}  |  memdir extract --discard ${c.id}${flag}`);
  }
  return 0;
}
