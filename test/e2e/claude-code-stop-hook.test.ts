import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runClaude } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { createRepo } from '../helpers/git-repo.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/**
 * What `memdir extract --hook` relies on from Claude Code's Stop hook, checked with a probe hook
 * in place of memdir: the JSON arrives whole with EOF, the hook runs in a session of its own, and
 * `claude -p` waits for it to exit. Not relied on, as under load (`yes` ×2) Stop fires before it
 * now and then: the turn's last assistant line (5 runs in 20; the cursor takes it on the next run)
 * and, in a new session, the transcript file itself (1 in 20; the run waits for it).
 */
let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
  server.setDefault(() => ({ text: 'Noted.' }));
});
afterAll(() => server.close());

/** Records stdin to its end, the transcript's line types and its own session, then lingers before its last record. */
const PROBE = `
const fs = require('node:fs');
const [record] = process.argv.slice(2);
fs.writeFileSync(record, 'started\\n');
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const input = JSON.parse(Buffer.concat(chunks).toString());
  let types;
  try {
    // A line Claude Code is still writing is cut short.
    types = fs.readFileSync(input.transcript_path, 'utf8').split('\\n').filter(Boolean).map((l) => {
      try {
        return JSON.parse(l).type;
      } catch {
        return 'partial';
      }
    });
  } catch (error) {
    types = error.code;
  }
  const session = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[3];
  fs.appendFileSync(record, JSON.stringify({ event: input.hook_event_name, types, session }) + '\\n');
  setTimeout(() => fs.appendFileSync(record, 'exited\\n'), 1500);
});
`;

test('the Stop hook gets its JSON with EOF, a session of its own, and claude -p waits for it', async () => {
  const home = tempDir();
  const repo = await createRepo(path.join(tempDir(), 'app'));
  const probe = path.join(tempDir(), 'probe.cjs');
  const record = path.join(path.dirname(probe), 'record.txt');
  fs.writeFileSync(probe, PROBE);
  writeTree(repo, { '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `"${process.execPath}" "${probe}" "${record}"` }] }] } }) });
  const r = await runClaude({ cwd: repo, home, baseUrl: server.url, prompt: 'remember: the deploy window is Tuesdays' });
  expect(r.code, r.stderr).toBe(0);
  const [started, first, last] = fs.readFileSync(record, 'utf8').trim().split('\n');
  expect(started).toBe('started');
  const seen = JSON.parse(first!);
  expect(seen.event).toBe('Stop');
  // The transcript as it was when Stop fired, or ENOENT: a new session's file may not exist yet.
  expect(seen.types === 'ENOENT' || seen.types.includes('user')).toBe(true);
  const ownSession = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[3];
  expect(seen.session).not.toBe(ownSession);
  expect(last).toBe('exited');
});
