import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { sharedFixtures } from '../helpers/fixtures.js';
import { runRecorded } from '../helpers/load-recorder.js';
import { cleanEnv, memdirBin, runMemdir } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

const REAL = path.join(sharedFixtures, 'transcripts/d-kimuson+claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl');
const SESSION = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';

function workspace() {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  writeTree(dir, {
    'MEMORY.md': '- [Deploy](project_deploy.md) — deploy only on Tuesdays\n',
    'project_deploy.md': '---\nname: Deploy\ndescription: When deploys run\ntype: project\n---\n\nTuesdays.\n',
  });
  return { root, dir, env: cleanEnv(path.join(root, 'home')) };
}

function sessionStart(ws: ReturnType<typeof workspace>, session: string, source: string) {
  const input = JSON.stringify({ session_id: session, transcript_path: path.join(ws.root, `${session}.jsonl`), cwd: ws.root, hook_event_name: 'SessionStart', source });
  return runRecorded(ws.root, [memdirBin, 'context', '--hook', '--dir', ws.dir], { env: ws.env, input });
}

const context = (stdout: string) => (stdout ? (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext : '');

test('after a compaction or on resume the SessionStart hook brings back the notes of that session, after the index; not at startup, not for another session', async () => {
  const ws = workspace();
  expect((await runMemdir(['session', '--from', REAL, '--dir', ws.dir], { cwd: ws.root, env: ws.env })).code).toBe(0);
  const notes = fs.readFileSync(path.join(ws.dir, '.memdir/sessions', `${SESSION}.md`), 'utf8');
  const items = notes.split('\n').filter((l) => l.startsWith('- '));
  expect(items.length).toBeGreaterThan(3);

  for (const source of ['compact', 'resume']) {
    const started = await sessionStart(ws, SESSION, source);
    expect([started.code, started.stderr]).toEqual([0, '']);
    const text = context(started.stdout);
    const index = text.indexOf('- [Deploy](project_deploy.md)');
    const section = text.indexOf('## Notes kept on this session');
    expect(index).toBeGreaterThanOrEqual(0);
    expect(section).toBeGreaterThan(index);
    // Every line of the notes, references kept; headings nested under the section's.
    for (const item of items) expect(text.slice(section)).toContain(item);
    expect(text).toContain('### Errors and corrections');
    expect(text).not.toContain('<!-- memdir session notes');
  }

  const startup = await sessionStart(ws, SESSION, 'startup');
  expect(context(startup.stdout)).not.toContain('Notes kept on this session');
  // At startup the notes are not even opened.
  expect(startup.read.filter((file) => file.includes('.memdir/sessions'))).toEqual([]);
  const other = await sessionStart(ws, 'another-session', 'compact');
  expect(context(other.stdout)).not.toContain('Notes kept on this session');
});

test('notes larger than the budget are brought back cut at a line, within 24,000 bytes', async () => {
  const ws = workspace();
  const line = (i: number) => `- turn ${i}: ${'édité '.repeat(20)} [m:${String(i).padStart(8, '0')}]`;
  const big = `# Worklog\n${Array.from({ length: 2_000 }, (_, i) => line(i)).join('\n')}\n`;
  writeTree(ws.dir, { [`.memdir/sessions/${SESSION}.md`]: big });
  const started = await sessionStart(ws, SESSION, 'compact');
  const text = context(started.stdout);
  const notes = text.slice(text.indexOf('### Worklog'));
  expect(Buffer.byteLength(notes)).toBeLessThanOrEqual(24_000);
  expect(notes.trimEnd().split('\n').at(-1)).toMatch(/^- turn \d+: .* \[m:\d{8}\]$/);
});
