// A long session made by repeating one real transcript: every copy's uuids (and API message ids)
// suffixed with the copy number, chained to the copy before, the session id kept — one session of
// `bytes` bytes, as a day-long Claude Code session with its subagents' lines would be.
import fs from 'node:fs';

export function generateSession(file, bytes, source) {
  const lines = fs
    .readFileSync(source, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  const out = fs.openSync(file, 'w');
  let written = 0;
  let lastUuid = null;
  try {
    for (let copy = 0; written < bytes; copy++) {
      const renamed = lines.map((value) => {
        const line = { ...value };
        for (const field of ['uuid', 'parentUuid', 'logicalParentUuid', 'leafUuid']) if (typeof line[field] === 'string') line[field] = `${line[field]}-${copy}`;
        // The copy's first line follows the previous copy's last: one conversation.
        if (line.parentUuid === null && copy > 0) line.parentUuid = lastUuid;
        if (typeof line.message?.id === 'string') line.message = { ...line.message, id: `${line.message.id}-${copy}` };
        return line;
      });
      lastUuid = renamed.findLast((line) => typeof line.uuid === 'string' && line.isSidechain !== true)?.uuid ?? lastUuid;
      written += fs.writeSync(out, `${renamed.map((line) => JSON.stringify(line)).join('\n')}\n`);
    }
  } finally {
    fs.closeSync(out);
  }
  return written;
}
