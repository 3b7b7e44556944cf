import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import type { TranscriptMessage } from '../../src/claude-code/transcript.js';
import { CANDIDATES_FILE, readCandidates, recordCandidates, removeCandidate, unsavedStatements } from '../../src/extract/candidates.js';
import { tempDir } from '../helpers/temp.js';

const prompt = (uuid: string, text: string): TranscriptMessage => ({
  uuid,
  parentUuid: null,
  role: 'user',
  timestamp: '2026-03-02T10:00:00Z',
  sessionId: 's1',
  text,
  toolUses: [],
  isHumanPrompt: true,
});

const messages = [
  prompt('u1', 'From now on answer in British English, and never use emojis in commit messages.'),
  prompt('u2', 'I prefer small pull requests, one change each.'),
  prompt('u3', 'fix the failing login test'),
  prompt('u4', `I prefer the deploy token ghp_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'} for pushes.`),
];

test('only what the hook mode leaves unsaved and the full detector finds is a candidate', () => {
  expect(unsavedStatements(messages).map(({ message }) => message.uuid)).toEqual(['u2', 'u4']);
});

test('recorded once per message and statement, never with a secret; a cut line is skipped; removed by id', () => {
  const dir = tempDir();
  const context = { sessionId: 's1', transcript: '/t.jsonl', all: messages };
  const first = recordCandidates(dir, unsavedStatements(messages), context);
  expect(first.recorded).toEqual([
    expect.objectContaining({ statement: 'I prefer small pull requests, one change each.', messageUuid: 'u2', messageIndex: 1, kind: 'standing', basis: 'inferred', sessionId: 's1' }),
  ]);
  expect(first.rejected).toEqual([{ op: 'create', file: '', reason: 'holds a secret (github-pat); not kept for review', sources: ['u4'] }]);
  const file = path.join(dir, '.memdir', CANDIDATES_FILE);
  expect(fs.readFileSync(file, 'utf8')).not.toContain('ghp_');
  // The same messages read again (a cursor reset): nothing added.
  expect(recordCandidates(dir, unsavedStatements(messages), context).recorded).toEqual([]);
  // A line cut by a crash mid-append is skipped, and does not swallow the next one appended.
  fs.appendFileSync(file, '{"id":"cut sho');
  expect(readCandidates(dir)).toEqual(first.recorded);
  const later = recordCandidates(dir, unsavedStatements([prompt('u5', 'We use date-fns, not moment, for dates.')]), context);
  expect(readCandidates(dir)).toEqual([...first.recorded, ...later.recorded]);
  removeCandidate(dir, first.recorded[0]!.id);
  expect(readCandidates(dir)).toEqual(later.recorded);
});
