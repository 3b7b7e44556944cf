// A large transcript made of the shared fixture transcripts, repeated with fresh uuids (and
// fresh API message ids) per copy, so every copy is new conversation, not a duplicate.
import fs from 'node:fs';
import path from 'node:path';

const ID_FIELDS = ['uuid', 'parentUuid', 'logicalParentUuid', 'leafUuid', 'sessionId'];

function fixtureLines(fixturesDir) {
  const files = ['transcripts', 'claude-code-2.1.197'].flatMap((dir) =>
    fs
      .readdirSync(path.join(fixturesDir, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.jsonl'))
      .sort()
      .map((file) => path.join(fixturesDir, dir, file)),
  );
  return files.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== ''),
  );
}

/** One copy of a line: ids suffixed with the copy number; lines that are not JSON objects stay as they are. */
function renumber(line, copy) {
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return line;
  for (const field of ID_FIELDS) if (typeof value[field] === 'string') value[field] = `${value[field]}-${copy}`;
  if (typeof value.message?.id === 'string') value.message.id = `${value.message.id}-${copy}`;
  return JSON.stringify(value);
}

/** Write a transcript of at least `bytes` bytes to `file`; returns its size. */
export function generateTranscript(file, bytes, fixturesDir) {
  const lines = fixtureLines(fixturesDir);
  const out = fs.openSync(file, 'w');
  let written = 0;
  try {
    for (let copy = 0; written < bytes; copy++) {
      const chunk = `${lines.map((line) => renumber(line, copy)).join('\n')}\n`;
      written += fs.writeSync(out, chunk);
    }
  } finally {
    fs.closeSync(out);
  }
  return written;
}
