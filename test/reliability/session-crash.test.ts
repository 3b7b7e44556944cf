import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { sharedFixtures } from '../helpers/fixtures.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

// A notes update killed (SIGKILL) after each of its durable write steps in turn: the notes file is
// the old one or the new one, whole, and the next run sweeps what the killed one left and writes.

const REAL = path.join(sharedFixtures, 'transcripts/d-kimuson+claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
const SESSION = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';

describe('kill -9 in the middle of a notes update', () => {
  test.each([1, 2])('killed after write step %i: the old notes or the new ones, never a mix', async (step) => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    const env = cleanEnv(path.join(root, 'home'));
    const notes = path.join(dir, '.memdir/sessions', `${SESSION}.md`);
    // The old notes: from the first half of the session.
    const lines = fs.readFileSync(REAL, 'utf8').split('\n').filter(Boolean);
    const half = path.join(root, `${SESSION}.jsonl`);
    fs.writeFileSync(half, `${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`);
    expect((await runMemdir(['session', '--from', half, '--dir', dir], { cwd: root, env })).code).toBe(0);
    const old = fs.readFileSync(notes, 'utf8');
    // The new notes, as an undisturbed run writes them (in a copy of the directory's parent).
    const fresh = await runMemdir(['session', '--from', REAL, '--dir', path.join(root, 'other'), '--dry-run'], { cwd: root, env });
    const updated = `${fresh.stdout.trimEnd()}\n`;
    expect(updated).not.toBe(old);

    const killed = await runMemdir(['session', '--from', REAL, '--dir', dir], { cwd: root, env: { ...env, MEMDIR_TEST_CRASH_AFTER_STEP: String(step) } });
    expect(killed.code).toBe(-1); // ended by the signal
    const after = fs.readFileSync(notes, 'utf8');
    // Step 1 is the notes' temp file, written and synced but not renamed: the old notes stand.
    // Step 2 is the cursor's, after the notes' rename: the new notes stand.
    expect(after).toBe(step === 1 ? old : updated);

    const next = await runMemdir(['session', '--from', REAL, '--dir', dir], { cwd: root, env });
    expect(next.code).toBe(0);
    expect(fs.readFileSync(notes, 'utf8')).toBe(updated);
    expect(fs.readdirSync(path.dirname(notes)).filter((f) => f.includes('tmp'))).toEqual([]);
  });
});
