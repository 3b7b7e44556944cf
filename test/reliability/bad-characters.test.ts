import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { waitForDetachedExtracts } from '../helpers/claude.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

// A "remember" request holding control characters (pasted coloured terminal output, a stray NUL,
// BEL or DEL) is text: it is saved without them, the other requests of the run are saved too, and
// the cursor moves past it, so the next Stop hook saves what came after.

const BAD = [
  ['ESC (a colour sequence)', 'remember: the \x1b[31mstaging\x1b[0m database is read-only on Fridays', 'staging database is read-only on Fridays'],
  ['NUL', 'remember: the release\x00 train leaves every Wednesday at noon', 'release train leaves every Wednesday at noon'],
  ['BEL', 'remember: \x07the billing service owns the invoice queue', 'billing service owns the invoice queue'],
  ['DEL', 'remember: the pager\x7f rota lives in the ops wiki', 'pager rota lives in the ops wiki'],
] as const;

let uuid = 0;
const userLine = (text: string) => {
  uuid++;
  return `${JSON.stringify({ type: 'user', uuid: `u${uuid}`, parentUuid: null, sessionId: 'sess-1', timestamp: '2026-11-30T10:00:00Z', message: { role: 'user', content: text } })}\n`;
};

function workspace() {
  const root = tempDir();
  return { root, dir: path.join(root, 'memory'), transcript: path.join(root, 'sess-1.jsonl'), env: cleanEnv(path.join(root, 'home')) };
}

/** Every memory file's text, and the index. */
function saved(dir: string): { files: string[]; text: string } {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.md') && !f.startsWith('.')) : [];
  return { files: files.filter((f) => f !== 'MEMORY.md'), text: files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n') };
}

test.each(BAD)('extract: a request with %s is saved without it, and the requests around it are saved', async (_name, request, words) => {
  const { root, dir, transcript, env } = workspace();
  fs.writeFileSync(transcript, userLine('remember: deploys happen only on Tuesday mornings') + userLine(request) + userLine('remember: the API docs live in the Confluence space API'));
  const run = await runMemdir(['extract', '--from', transcript, '--dir', dir, '--engine', 'local'], { cwd: root, env });
  expect(run.code, run.stderr).toBe(0);
  const { files, text } = saved(dir);
  expect(files).toHaveLength(3);
  expect(text).toContain(words);
  expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
});

test('the Stop hook: a request with a colour sequence does not stop the cursor; the next requests are saved', async () => {
  const { root, dir, transcript, env } = workspace();
  const input = JSON.stringify({ session_id: 'sess-1', transcript_path: transcript, cwd: root, hook_event_name: 'Stop' });
  const stop = async () => {
    const hook = await runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'local'], { cwd: root, env, input });
    expect(hook.code).toBe(0);
    await waitForDetachedExtracts(dir);
  };
  fs.writeFileSync(transcript, userLine('remember: \x1b[1;32mgreen\x1b[0m builds may ship on Fridays\x07'));
  await stop();
  expect(saved(dir).files).toHaveLength(1);
  for (const request of ['remember: the design reviews happen on Thursdays', 'remember: the mobile team tracks bugs in Linear', 'remember: the user prefers tabs over spaces']) {
    fs.appendFileSync(transcript, userLine(request));
    await stop();
  }
  expect(saved(dir).files).toHaveLength(4);
  expect(fs.readFileSync(path.join(dir, '.memdir/extract.log'), 'utf8')).not.toMatch(/one line/);
});

test('a candidate memdir refuses to write (an addition to a team memory that already holds a secret) is skipped with its reason; the others are saved', async () => {
  const { root, transcript, env } = workspace();
  const dir = path.join(root, 'memory', 'team');
  const holding =
    '---\nname: Deploy window\ndescription: Deploys happen only on Tuesday mornings\ntype: project\n---\n\nDeploys happen only on Tuesday mornings; the deploy key is AKIALALEMEL33243OLIA.\n';
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'project_deploy.md'), holding);
  fs.writeFileSync(path.join(dir, 'MEMORY.md'), '- [Deploy window](project_deploy.md) — Deploys happen only on Tuesday mornings\n');
  fs.writeFileSync(transcript, userLine('remember: deploys happen only on Tuesday mornings, after the canary passes') + userLine('remember: the API docs live in the Confluence space API'));
  const run = await runMemdir(['extract', '--from', transcript, '--dir', dir, '--engine', 'local'], { cwd: root, env });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(/project_deploy\.md/);
  expect(fs.readFileSync(path.join(dir, 'project_deploy.md'), 'utf8')).toBe(holding);
  expect(saved(dir).files).toHaveLength(2);
});
