import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { waitForDetachedExtracts } from '../helpers/claude.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { sharedFixtures } from '../helpers/fixtures.js';
import { cleanEnv, runMemdir } from '../helpers/run-cli.js';
import { snapshotTree, tempDir, writeTree } from '../helpers/temp.js';

type Line = Record<string, unknown>;

/** A transcript as Claude Code writes it: user prompts and assistant replies chained by parentUuid. */
function transcript(turns: Array<{ user?: string; assistant?: string; toolUse?: { name: string; input: Line } }>, sessionId = 'sess-1'): string {
  const lines: Line[] = [];
  let parent: string | null = null;
  turns.forEach((turn, i) => {
    const timestamp = `2026-03-02T10:${String(i).padStart(2, '0')}:00Z`;
    if (turn.user !== undefined) {
      const uuid = `u${i}`;
      lines.push({ type: 'user', uuid, parentUuid: parent, sessionId, timestamp, message: { role: 'user', content: turn.user } });
      parent = uuid;
    }
    if (turn.assistant !== undefined || turn.toolUse) {
      const uuid = `a${i}`;
      const content: Line[] = [];
      if (turn.assistant) content.push({ type: 'text', text: turn.assistant });
      if (turn.toolUse) content.push({ type: 'tool_use', id: `toolu_${i}`, ...turn.toolUse });
      lines.push({ type: 'assistant', uuid, parentUuid: parent, sessionId, timestamp, message: { id: `msg_${i}`, role: 'assistant', content } });
      parent = uuid;
    }
  });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** `turns` as a transcript file `t.jsonl` in `root`; its path. */
function transcriptFile(root: string, turns: Parameters<typeof transcript>[0]): string {
  const file = path.join(root, 't.jsonl');
  fs.writeFileSync(file, transcript(turns));
  return file;
}

function workspace(env: NodeJS.ProcessEnv = {}) {
  const root = tempDir();
  const dir = path.join(root, 'memory');
  return { root, dir, env: cleanEnv(path.join(root, 'home'), env) };
}

/** The pending requests of coalesced calls still waiting (none once every run has finished). */
const pendingRequests = (dir: string) => {
  const pending = path.join(dir, '.memdir/extract/pending');
  return fs.existsSync(pending) ? fs.readdirSync(pending) : [];
};

const memoryFiles = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.md') && f !== 'MEMORY.md')
        .sort()
    : [];

describe('extract --engine local', () => {
  test('a durable request becomes one memory with provenance and absolute dates; a second run creates nothing', async () => {
    const { root, dir, env } = workspace();
    const file = transcriptFile(root, [
      { user: 'fix the failing login test', assistant: 'Done.' },
      { user: 'Note for the future: the release freeze starts next Thursday because of the audit.', assistant: 'Noted.' },
      { user: 'stop, that is the wrong file, undo the last edit', assistant: 'Reverted.' },
    ]);
    const first = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ status: 'extracted', sessionId: 'sess-1', cursor: { before: null, after: 'a2' }, lines: { read: 6, malformed: 0 } });
    expect(report.operations).toHaveLength(1);
    expect(report.operations[0]).toMatchObject({ op: 'create', type: 'project', sources: ['u1'], basis: 'request' });
    const text = fs.readFileSync(path.join(dir, report.operations[0].file), 'utf8');
    expect(text).toContain('originSessionId: sess-1\noriginMessageUuid: u1\n');
    expect(text).toContain('The release freeze starts 2026-03-05'); // "next Thursday" on Monday 2026-03-02 (docs/architecture.md#memory-types)
    expect(text).not.toMatch(/next Thursday/i);
    // The user's reason is the Why; no How to apply is made up for a fact that says nothing to do.
    expect(text).toMatch(/\*\*Why:\*\* because of the audit\.\n$/);
    expect(text).not.toContain('**How to apply:**');
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toContain(`(${report.operations[0].file})`);

    const before = snapshotTree(dir);
    const second = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(JSON.parse(second.stdout)).toMatchObject({ status: 'no-new-messages', operations: [] });
    expect(snapshotTree(dir)).toEqual(before);
  });

  test('a memory whose pointer lands past what the agent loads of the index is saved and reported as not loaded', async () => {
    const { root, dir, env } = workspace();
    const pointers = Array.from({ length: 205 }, (_, i) => `- [Old ${i}](project_old_${i}.md) — old memory number ${i}`);
    writeTree(dir, { 'MEMORY.md': `${pointers.join('\n')}\n` });
    const file = transcriptFile(root, [{ user: 'Please remember that the staging DB is reset every Monday.', assistant: 'Noted.' }]);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Saved 1 memory');
    expect(r.stderr).toMatch(/the pointer to project_\w+\.md is past what the agent loads of MEMORY\.md/);
  });

  test('a statement an existing memory already makes updates that memory instead of adding a twin', async () => {
    const { root, dir, env } = workspace();
    const save = await runMemdir(
      ['save', '--dir', dir, '--type', 'feedback', '--name', 'No database mocks', '--description', 'Never mock the database in integration tests', '--body', 'Never mock the database.'],
      { cwd: root, env },
    );
    expect(save.code, save.stderr).toBe(0);
    const file = transcriptFile(root, [{ user: 'Please remember: never mock the database in integration tests, we got burned by a migration.' }]);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(JSON.parse(r.stdout).operations).toMatchObject([{ op: 'update', file: 'feedback_no_database_mocks.md', name: 'No database mocks' }]);
    expect(memoryFiles(dir)).toEqual(['feedback_no_database_mocks.md']);
    expect(fs.readFileSync(path.join(dir, 'feedback_no_database_mocks.md'), 'utf8')).toContain('**Why:** we got burned by a migration.');
  });

  test('a memory someone wrote by hand is never replaced: a restatement leaves it as it is, something new is added at its end', async () => {
    const { root, dir, env } = workspace();
    const handWritten = [
      '---',
      'name: Deploy schedule',
      'description: We deploy to production only on Tuesdays, after the QA sign-off',
      'type: project',
      'owner: ops',
      '---',
      '',
      'We deploy to production only on Tuesdays, after the QA sign-off in #release.',
      '',
      '**Why:** the ops team is on call Tuesday to Thursday; Friday deploys caused two outages.',
      '**How to apply:** plan merges so they land by Monday evening.',
      '',
    ].join('\n');
    const index = '- [Deploy schedule](deploy_schedule.md) — Tuesdays only, after QA sign-off\n';
    writeTree(dir, { 'deploy_schedule.md': handWritten, 'MEMORY.md': index });

    const again = transcriptFile(root, [{ user: 'Remember: we deploy to production only on Tuesdays.' }]);
    const first = JSON.parse((await runMemdir(['extract', '--from', again, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env })).stdout);
    expect(first.operations).toEqual([]);
    expect(first.rejected).toEqual([{ op: 'update', file: 'deploy_schedule.md', reason: 'deploy_schedule.md already says it', sources: ['u0'] }]);
    expect(fs.readFileSync(path.join(dir, 'deploy_schedule.md'), 'utf8')).toBe(handWritten);

    const news = path.join(root, 'news.jsonl');
    fs.writeFileSync(news, transcript([{ user: 'Remember: we deploy to production only on Tuesdays, after QA sign-off, because the freeze ends Monday.' }], 'sess-2'));
    const second = JSON.parse((await runMemdir(['extract', '--from', news, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env })).stdout);
    expect(second.operations).toMatchObject([{ op: 'update', file: 'deploy_schedule.md', name: 'Deploy schedule', description: 'We deploy to production only on Tuesdays, after the QA sign-off' }]);
    const updated = fs.readFileSync(path.join(dir, 'deploy_schedule.md'), 'utf8');
    expect(updated.startsWith(handWritten.replace('owner: ops\n', 'owner: ops\noriginSessionId: sess-2\noriginMessageUuid: u0\n').trimEnd())).toBe(true);
    expect(updated.endsWith('\n\n**Update (2026-03-02, session sess-2):** We deploy to production only on Tuesdays, after QA sign-off. **Why:** because the freeze ends Monday.\n')).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe(index);
  });

  test('a memory about the same thing that memdir does not rewrite (UTF-16) is left byte for byte, reported, and the run goes on', async () => {
    const { root, dir, env } = workspace();
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('---\nname: Deploy schedule\ndescription: We deploy to production only on Tuesdays\ntype: project\n---\n\nTuesdays only.\n', 'utf16le'),
    ]);
    writeTree(dir, { 'MEMORY.md': '- [Deploy schedule](deploy_schedule.md) — Tuesdays only\n' });
    fs.writeFileSync(path.join(dir, 'deploy_schedule.md'), utf16);
    const file = transcriptFile(root, [{ user: 'Remember: we deploy to production only on Tuesdays and Thursdays now.' }]);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.operations).toEqual([]);
    expect(report.rejected).toMatchObject([{ op: 'update', file: 'deploy_schedule.md', sources: ['u0'] }]);
    expect(report.rejected[0].reason).toMatch(/^deploy_schedule\.md is about the same, and memdir leaves it as it is \(UTF-16LE/);
    expect(report.cursor.after).toBe('u0');
    expect(fs.readFileSync(path.join(dir, 'deploy_schedule.md')).equals(utf16)).toBe(true);
  });

  test('when the main agent wrote into the memory directory, extraction is skipped and the cursor moves', async () => {
    const { root, dir, env } = workspace();
    // The real Claude Code transcript, its Write aimed at this test's memory directory.
    const real = fs.readFileSync(path.join(sharedFixtures, 'claude-code-2.1.197/session-writes-memory.jsonl'), 'utf8');
    const file = path.join(root, 'session.jsonl');
    fs.writeFileSync(file, real.replaceAll('/home/dev/.claude/projects/-home-dev-app/memory', dir));
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ status: 'main-agent-wrote', operations: [], sessionId: '810bda2c-bc39-4713-b54c-dd50004e8994' });
    expect(report.mainAgentWrites[0]).toMatch(new RegExp(`^${dir}/`));
    expect(report.cursor.after).not.toBeNull();
    expect(memoryFiles(dir)).toEqual([]);
    const again = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(JSON.parse(again.stdout).status).toBe('no-new-messages');
  });

  test('a statement the agent wrote into CLAUDE.md, .cursorrules or AGENTS.md in its answer is not saved twice', async () => {
    const { root, dir, env } = workspace();
    const file = transcriptFile(root, [
      { user: 'From now on, always use pnpm instead of npm in this repo. Add that to CLAUDE.md.' },
      { toolUse: { name: 'Edit', input: { file_path: path.join(root, 'CLAUDE.md'), old_string: '## Tools', new_string: '## Tools\n- Always use pnpm instead of npm.' } } },
      { user: 'never mock the database in integration tests' },
      {
        toolUse: { name: 'MultiEdit', input: { file_path: path.join(root, '.cursor/rules/testing.mdc'), edits: [{ old_string: 'x', new_string: 'Never mock the database in integration tests.' }] } },
      },
      // Written into CLAUDE.md too, but something else: the statement is still kept.
      { user: 'Never force-push shared branches, people lose work that way.' },
      { toolUse: { name: 'Write', input: { file_path: path.join(root, 'AGENTS.md'), content: '# Agents\nRun the linter before committing.' } } },
    ]);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.rejected).toEqual([
      { op: 'create', file: '', reason: 'already in CLAUDE.md, written there by the agent', sources: ['u0'] },
      { op: 'create', file: '', reason: 'already in testing.mdc, written there by the agent', sources: ['u2'] },
    ]);
    expect(report.operations).toHaveLength(1);
    expect(report.operations[0]).toMatchObject({ op: 'create', type: 'feedback', sources: ['u4'], basis: 'inferred' });
    expect(memoryFiles(dir)).toHaveLength(1);
  });

  test('--explicit-only (or extract.explicitOnly in the config) keeps only what was asked for', async () => {
    const { root, dir, env } = workspace();
    const file = transcriptFile(root, [
      { user: 'I prefer small pull requests, one change each.', assistant: 'OK.' },
      { user: 'Please remember that the demo environment is rebuilt every night.', assistant: 'OK.' },
    ]);
    const flag = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--explicit-only', '--dry-run', '--json'], { cwd: root, env });
    expect(JSON.parse(flag.stdout).operations.map((o: { sources: string[] }) => o.sources)).toEqual([['u1']]);
    fs.writeFileSync(path.join(root, 'memdir.config.json'), JSON.stringify({ extract: { explicitOnly: true } }));
    const config = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--dry-run', '--json'], { cwd: root, env });
    expect(JSON.parse(config.stdout).operations.map((o: { sources: string[] }) => o.sources)).toEqual([['u1']]);
    const overridden = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--no-explicit-only', '--dry-run', '--json'], { cwd: root, env });
    expect(JSON.parse(overridden.stdout).operations).toHaveLength(2);
  });

  test("what the project's CLAUDE.md (or the user's) already says is not saved again", async () => {
    const { root, dir, env } = workspace();
    const project = path.join(root, 'app');
    writeTree(project, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'CLAUDE.md': '# App\n\n## Conventions\n- Use pnpm, never npm or yarn.\n',
      'packages/web/AGENTS.md': 'Keep components small.\n',
      '.github/copilot-instructions.md': 'Write commit messages in the imperative mood.\n',
    });
    writeTree(path.join(root, 'home/.claude'), { 'CLAUDE.md': 'Answer in British English.\n' });
    const file = transcriptFile(root, [
      { user: 'From now on, always use pnpm, never npm.', assistant: 'OK.' },
      { user: 'Always answer in British English please.', assistant: 'OK.' },
      { user: 'Never force-push shared branches, people lose work that way.', assistant: 'OK.' },
      { user: 'From now on, write commit messages in the imperative mood.', assistant: 'OK.' },
    ]);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: path.join(project, 'packages/web'), env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.rejected).toEqual([
      { op: 'create', file: '', reason: `${path.join(project, 'CLAUDE.md')} already says it`, sources: ['u0'] },
      { op: 'create', file: '', reason: `${path.join(root, 'home/.claude/CLAUDE.md')} already says it`, sources: ['u1'] },
      { op: 'create', file: '', reason: `${path.join(project, '.github/copilot-instructions.md')} already says it`, sources: ['u3'] },
    ]);
    expect(report.operations.map((o: { sources: string[] }) => o.sources)).toEqual([['u2']]);
  });

  test('a hostile instruction file (a link to /dev/zero, a FIFO, a folder) is not read, and the memory is kept', async () => {
    const { root, dir, env } = workspace();
    fs.symlinkSync('/dev/zero', path.join(root, 'CLAUDE.md'));
    execFileSync('mkfifo', [path.join(root, 'AGENTS.md')]);
    fs.mkdirSync(path.join(root, 'GEMINI.md'));
    const file = transcriptFile(root, [{ user: 'Never force-push shared branches, people lose work that way.', assistant: 'OK.' }]);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).operations).toHaveLength(1);
  });

  test('--dry-run prints the operations and changes nothing; --every waits for N user turns', async () => {
    const { root, dir, env } = workspace();
    const file = transcriptFile(root, [{ user: "I'm a data scientist on the billing team, so explain frontend parts in detail." }]);
    const dry = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--dry-run'], { cwd: root, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^create \(new file\) \[user, inferred\] I'm a data scientist on the billing team/);
    expect(fs.existsSync(dir)).toBe(false);
    const throttled = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--every', '2', '--json'], { cwd: root, env });
    expect(JSON.parse(throttled.stdout)).toMatchObject({ status: 'throttled', cursor: { after: null } });
    const piped = await runMemdir(['extract', '--from', '-', '--dir', dir, '--engine', 'local'], { cwd: root, env, input: fs.readFileSync(file, 'utf8') });
    expect(piped.stderr).toContain('Saved 1 memory');
    expect(memoryFiles(dir)).toHaveLength(1);
  });

  test('a durable statement holding a secret is refused and reported, never written', async () => {
    const { root, dir, env } = workspace();
    const file = transcriptFile(root, [{ user: 'remember: the deploy token is ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8' }]);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ operations: [], rejected: [{ op: 'create', reason: 'holds a secret (github-pat)', sources: ['u0'] }] });
    expect(r.stdout).not.toContain('ghp_');
    expect(memoryFiles(dir)).toEqual([]);
  });

  test('10 extracts of one transcript at once write exactly one set of memories and leave the cursor at the end', async () => {
    const { root, dir, env } = workspace();
    const file = transcriptFile(root, [
      { user: 'remember: our rate limit with the payment provider is 100 requests per second', assistant: 'ok' },
      { user: 'Never mock the database in tests — we got burned last quarter.', assistant: 'ok' },
    ]);
    const runs = await Promise.all(Array.from({ length: 10 }, () => runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const statuses = runs.map((r) => JSON.parse(r.stdout).status);
    expect(statuses.filter((s) => s === 'extracted')).toHaveLength(1);
    expect(memoryFiles(dir)).toHaveLength(2);
    const pointers = fs
      .readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('- ['));
    expect(pointers).toHaveLength(2);
    const cursor = JSON.parse(fs.readFileSync(path.join(dir, '.memdir/extract/sessions/sess-1.json'), 'utf8'));
    expect(cursor.cursor).toBe('a1');
    expect(pendingRequests(dir)).toEqual([]);
  });

  test('calls from two sessions arriving during one run each get their trailing run: both sessions are extracted', async () => {
    const { root, dir, env } = workspace();
    const one = path.join(root, 'one.jsonl');
    const two = path.join(root, 'two.jsonl');
    fs.writeFileSync(one, transcript([{ user: 'remember: our rate limit with the payment provider is 100 requests per second', assistant: 'ok' }], 'sess-one'));
    fs.writeFileSync(two, transcript([{ user: 'Remember that the staging database is reset every Monday.', assistant: 'ok' }], 'sess-two'));
    const runs = await Promise.all(Array.from({ length: 10 }, (_, i) => runMemdir(['extract', '--from', i % 2 ? two : one, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(memoryFiles(dir)).toHaveLength(2);
    for (const session of ['sess-one', 'sess-two']) {
      expect(JSON.parse(fs.readFileSync(path.join(dir, `.memdir/extract/sessions/${session}.json`), 'utf8')).cursor).toBe('a0');
    }
    expect(pendingRequests(dir)).toEqual([]);
  });
});

describe('extract --hook', () => {
  test('answers at once: nothing new starts nothing, new messages start one detached run that logs to .memdir/extract.log', async () => {
    const { root, dir, env } = workspace();
    const file = transcriptFile(root, [{ user: 'hello there', assistant: 'hi' }]);
    const input = JSON.stringify({ session_id: 'sess-1', transcript_path: file, cwd: root, hook_event_name: 'Stop' });
    // Both the fast path and the full CLI (an option the fast path does not read) answer the hook.
    for (const extra of [[], ['--json']]) {
      const r = await runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'local', ...extra], { cwd: root, env, input });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
    }
    let cursor: string | undefined;
    for (let waited = 0; waited < 10_000 && !cursor; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      cursor = fs.existsSync(path.join(dir, '.memdir/extract/sessions/sess-1.json')) ? fs.readFileSync(path.join(dir, '.memdir/extract/sessions/sess-1.json'), 'utf8') : undefined;
    }
    expect(cursor).toContain('"cursor":"a0"');
    expect(fs.existsSync(path.join(dir, '.memdir/extract.log'))).toBe(true);
    fs.rmSync(path.join(dir, '.memdir/extract.log'));
    const idle = await runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'local'], { cwd: root, env, input });
    expect(idle.code).toBe(0);
    expect(fs.existsSync(path.join(dir, '.memdir/extract.log'))).toBe(false);
  });

  test.each([
    ['no transcript_path', '{"session_id":"s"}', /memdir extract hook skipped: the Stop hook input names no transcript_path/],
    ['not JSON', 'nope', /memdir extract hook skipped: hook input on stdin is not a JSON object/],
  ])('%s: exit 0 and one line on stderr', async (_label, input, message) => {
    const { root, dir, env } = workspace();
    const r = await runMemdir(['extract', '--hook', '--dir', dir], { cwd: root, env, input });
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});

describe('extract --review: what the Stop hook does not save is kept, never lost', () => {
  const BRITISH = 'From now on answer in British English, and never use emojis in commit messages.';
  const PREFERENCE = 'I prefer small pull requests, one change each.';
  const CONVENTION = 'We use date-fns, not moment, for dates.';

  test('a Stop-hook run saves the standing instruction, keeps the inferred ones as candidates; --accept saves one as extract would have, --discard drops one', async () => {
    const { root, dir, env } = workspace();
    const file = transcriptFile(root, [
      { user: BRITISH, assistant: 'Understood.' },
      { user: PREFERENCE, assistant: 'Noted.' },
      { user: CONVENTION, assistant: 'OK.' },
    ]);
    const input = JSON.stringify({ session_id: 'sess-1', transcript_path: file, cwd: root, hook_event_name: 'Stop' });
    const hook = await runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'local'], { cwd: root, env, input });
    expect(hook.code, hook.stderr).toBe(0);
    await waitForDetachedExtracts(dir);

    // The instruction is saved; the cursor moved past all three messages.
    expect(memoryFiles(dir)).toHaveLength(1);
    const saved = fs.readFileSync(path.join(dir, memoryFiles(dir)[0]!), 'utf8');
    expect(saved).toMatch(/^---\n[\s\S]*\ntype: feedback\n[\s\S]*originMessageUuid: u0\n[\s\S]*---\n\nFrom now on answer in British English, and never use emojis in commit messages\.\n/);
    expect(fs.readFileSync(path.join(dir, '.memdir/extract/sessions/sess-1.json'), 'utf8')).toContain('"cursor":"a2"');
    expect(fs.readFileSync(path.join(dir, '.memdir/extract.log'), 'utf8')).toContain('2 statements inferred');

    // The two inferred statements wait in candidates.jsonl with where they came from.
    const candidates = fs
      .readFileSync(path.join(dir, '.memdir/extract/candidates.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(candidates).toEqual([
      expect.objectContaining({
        statement: PREFERENCE,
        kind: 'standing',
        basis: 'inferred',
        sessionId: 'sess-1',
        messageUuid: 'u1',
        messageIndex: 2,
        transcript: file,
        messageTime: '2026-03-02T10:01:00Z',
      }),
      expect.objectContaining({ statement: CONVENTION, kind: 'standing', basis: 'inferred', sessionId: 'sess-1', messageUuid: 'u2', messageIndex: 4, transcript: file }),
    ]);
    const [preference, convention] = candidates as Array<{ id: string; reason: string }>;
    expect(preference!.id).toMatch(/^[0-9a-f]{8}$/);
    expect(preference!.reason).toBe('inferred (a preference or convention), not asked for: the Stop hook saves explicit requests and standing instructions only');

    // --review: one line per candidate (id, statement, why not saved) and the command to accept or discard it.
    const review = await runMemdir(['extract', '--review', '--dir', dir], { cwd: root, env });
    expect(review.code, review.stderr).toBe(0);
    expect(review.stdout).toBe(
      [
        `${preference!.id}  ${PREFERENCE}  (${preference!.reason})`,
        `  memdir extract --accept ${preference!.id} --dir ${dir}  |  memdir extract --discard ${preference!.id} --dir ${dir}`,
        `${convention!.id}  ${CONVENTION}  (${convention!.reason})`,
        `  memdir extract --accept ${convention!.id} --dir ${dir}  |  memdir extract --discard ${convention!.id} --dir ${dir}`,
        '',
      ].join('\n'),
    );
    const listed = await runMemdir(['extract', '--review', '--dir', dir, '--json'], { cwd: root, env });
    expect(JSON.parse(listed.stdout)).toEqual({ candidates });

    // --accept writes what `extract` without the hook's mode writes from the same message.
    const accepted = await runMemdir(['extract', '--accept', preference!.id, '--dir', dir, '--json'], { cwd: root, env });
    expect(accepted.code, accepted.stderr).toBe(0);
    const acceptedReport = JSON.parse(accepted.stdout);
    expect(acceptedReport.operations).toEqual([expect.objectContaining({ op: 'create', type: 'feedback', sources: ['u1'], basis: 'inferred' })]);
    const full = workspace();
    const fullFile = transcriptFile(full.root, [{ user: PREFERENCE, assistant: 'Noted.' }]);
    // The same message at the same time: one turn earlier in the first transcript.
    fs.writeFileSync(fullFile, fs.readFileSync(fullFile, 'utf8').replaceAll('"u0"', '"u1"').replaceAll('10:00:00Z', '10:01:00Z'));
    const reference = await runMemdir(['extract', '--from', fullFile, '--dir', full.dir, '--engine', 'local', '--no-explicit-only', '--json'], { cwd: full.root, env: full.env });
    const referenceFile = JSON.parse(reference.stdout).operations[0].file;
    expect(acceptedReport.operations[0].file).toBe(referenceFile);
    expect(fs.readFileSync(path.join(dir, referenceFile), 'utf8')).toBe(fs.readFileSync(path.join(full.dir, referenceFile), 'utf8'));
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toContain(`(${referenceFile})`);

    // --discard drops the other; neither is listed again.
    const discarded = await runMemdir(['extract', '--discard', convention!.id, '--dir', dir], { cwd: root, env });
    expect(discarded.code, discarded.stderr).toBe(0);
    expect(discarded.stdout).toBe(`Discarded ${convention!.id}\n`);
    expect(memoryFiles(dir)).toHaveLength(2);
    const empty = await runMemdir(['extract', '--review', '--dir', dir], { cwd: root, env });
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('no extract candidates waiting for review');
    expect(fs.readFileSync(path.join(dir, '.memdir/extract/candidates.jsonl'), 'utf8')).toBe('');

    // An id no longer (or never) listed is a usage error; nothing changes.
    for (const args of [
      ['--accept', preference!.id],
      ['--discard', 'deadbeef'],
    ]) {
      const unknown = await runMemdir(['extract', ...args, '--dir', dir], { cwd: root, env });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain(`no extract candidate ${args[1]} (memdir extract --review lists them)`);
    }
    expect(memoryFiles(dir)).toHaveLength(2);
  });

  test('a candidate that would hold a secret is never written; the run says so without it', async () => {
    const { root, dir, env } = workspace();
    const secret = `I prefer the deploy token ghp_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'} for pushes.`;
    const file = transcriptFile(root, [{ user: secret, assistant: 'OK.' }]);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--explicit-only'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/holds a secret \(\S+\); not kept for review/);
    expect(r.stderr).not.toContain('ghp_');
    expect(fs.existsSync(path.join(dir, '.memdir/extract/candidates.jsonl'))).toBe(false);
  });

  test("a candidate cites the lines of the session's notes that name its message", async () => {
    const { root, dir, env } = workspace();
    const file = transcriptFile(root, [
      { user: BRITISH, assistant: 'Understood.' },
      { user: PREFERENCE, assistant: 'Noted.' },
    ]);
    const notes = await runMemdir(['session', '--from', file, '--dir', dir], { cwd: root, env });
    expect(notes.code, notes.stderr).toBe(0);
    const input = JSON.stringify({ session_id: 'sess-1', transcript_path: file, cwd: root, hook_event_name: 'Stop' });
    expect((await runMemdir(['extract', '--hook', '--dir', dir, '--engine', 'local'], { cwd: root, env, input })).code).toBe(0);
    await waitForDetachedExtracts(dir);
    const [candidate] = fs
      .readFileSync(path.join(dir, '.memdir/extract/candidates.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; messageUuid: string; sessionNotes?: { file: string; lines: string[] } });
    expect(candidate!.messageUuid).toBe('u1');
    expect(candidate!.sessionNotes).toEqual({
      file: '.memdir/sessions/sess-1.md',
      lines: ['- Last turn: no tool calls [m:u1][m:a1]', `- Request: "${PREFERENCE}" [m:u1]`, `- 2026-03-02 10:01 "${PREFERENCE}" → no tool calls [m:u1][m:a1]`],
    });
    const review = await runMemdir(['extract', '--review', '--dir', dir], { cwd: root, env });
    expect(review.stdout).toContain(`  session notes: Request: "${PREFERENCE}" [m:u1]\n`);
  });

  test('--review with a transcript, or two actions at once, is a usage error', async () => {
    const { root, dir, env } = workspace();
    for (const args of [
      ['--review', '--from', 'x.jsonl'],
      ['--review', '--discard', 'abc'],
    ]) {
      const r = await runMemdir(['extract', ...args, '--dir', dir], { cwd: root, env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('give one of --review, --accept ID and --discard ID, without a transcript');
    }
  });
});

describe('extract: bad input', () => {
  test.each([
    ['a binary file', Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x0a, 0x00, 0x9c]), 2, /not a Claude Code transcript \(JSONL\)/],
    ['a JSON array instead of JSONL', '[{"type":"user","message":{"content":"hi"}}]\n', 2, /none of its 1 line is a transcript entry \(not-an-object\)/],
    ['a 50 MB single line', Buffer.alloc(50 * 1024 * 1024, 0x61), 2, /\(too-long\)/],
    ['an empty file', '', 0, /^$/],
    ['a missing file', null, 2, /cannot read \(ENOENT\)/],
  ])('%s: one line, exit %i, nothing written', async (_label, content, code, message) => {
    const { root, dir, env } = workspace();
    const file = path.join(root, 'input.jsonl');
    if (content !== null) fs.writeFileSync(file, content);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local'], { cwd: root, env });
    expect(r.code).toBe(code);
    expect(r.stderr.trim().split('\n').filter(Boolean).length).toBeLessThanOrEqual(1);
    expect(r.stderr.trim()).toMatch(message);
    expect(memoryFiles(dir)).toEqual([]);
    expect(fs.existsSync(path.join(dir, '.memdir/extract/sessions'))).toBe(false);
  });

  test('malformed lines among good ones are counted, never fatal', async () => {
    const { root, dir, env } = workspace();
    const file = path.join(root, 't.jsonl');
    fs.writeFileSync(file, `not json\n${transcript([{ user: 'hello' }])}{"type":"user","message":`);
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'local', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).lines).toEqual({ read: 3, malformed: 2 });
  });

  test('no input is a usage error', async () => {
    const { root, env } = workspace();
    const r = await runMemdir(['extract'], { cwd: root, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('give a transcript');
  });
});

describe('extract --engine claude (real SDK, fake Messages API)', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(() => server.close());

  test('valid operations are applied with the index; invalid ones are rejected with the reason', async () => {
    const { root, dir, env } = workspace();
    const claudeEnv = { ...env, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url };
    writeTree(dir, {});
    await runMemdir(
      ['save', '--dir', dir, '--type', 'project', '--name', 'Staging resets', '--description', 'Staging database is wiped every Monday at 06:00 UTC', '--body', 'Staging is reset weekly.'],
      { cwd: root, env },
    );
    const file = transcriptFile(root, [
      { user: 'we never use yarn here, pnpm only', assistant: 'Understood.' },
      { toolUse: { name: 'Edit', input: { file_path: path.join(root, 'CLAUDE.md'), old_string: 'a', new_string: 'Use pnpm, never yarn.' } } },
    ]);
    const op = (extra: Record<string, unknown>) => ({
      op: 'create',
      name: 'Package manager',
      description: 'The project uses pnpm, never yarn or npm',
      type: 'feedback',
      body: 'Use pnpm.\n\n**Why:** lockfile.\n**How to apply:** installs.',
      sources: ['u0'],
      ...extra,
    });
    server.enqueue({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'memory_operations',
          input: {
            operations: [
              op({ file: 'feedback_pnpm_only.md' }),
              op({
                op: 'update',
                file: 'project_staging_resets.md',
                type: 'project',
                name: 'Staging DB resets',
                description: 'The staging database is reset on Mondays at 06:00 UTC',
                body: 'Reset every Monday 06:00 UTC.\n\n**Why:** ops.\n**How to apply:** keep no data there.',
              }),
              op({ file: '../x.md' }),
              op({ file: 'misc_note.md', type: 'misc' }),
              op({ file: 'reference_token.md', body: 'token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8' }),
              op({ file: 'project_freeze.md', type: 'project', body: 'Freeze starts next Thursday.' }),
              op({ op: 'delete', file: 'user_unknown.md' }),
            ],
          },
        },
      ],
    });
    const before = server.messages().length;
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'claude', '--json'], { cwd: root, env: claudeEnv });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.operations.map((o: { op: string; file: string }) => `${o.op} ${o.file}`)).toEqual(['create feedback_pnpm_only.md', 'update project_staging_resets.md']);
    // What is reported is what was written: the update kept the memory's own name and description.
    expect(report.operations[1]).toMatchObject({ name: 'Staging resets', description: 'Staging database is wiped every Monday at 06:00 UTC' });
    expect(report.operations.every((o: { basis: string }) => o.basis === 'model')).toBe(true);
    expect(report.rejected.map((o: { file: string; reason: string }) => `${o.file}: ${o.reason}`)).toEqual([
      '../x.md: file must be a simple .md name inside the memory directory',
      'misc_note.md: type "misc" is not one of user, feedback, project, reference',
      'reference_token.md: holds a secret (github-pat)',
      'project_freeze.md: relative date "next Thursday"; write 2026-03-05',
      'user_unknown.md: delete of a file that is not in the manifest',
    ]);
    expect(report.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(memoryFiles(dir)).toEqual(['feedback_pnpm_only.md', 'project_staging_resets.md']);
    expect(fs.readFileSync(path.join(dir, 'feedback_pnpm_only.md'), 'utf8')).toContain('originMessageUuid: u0');
    // The model saw the description only: its update is added to the memory, whose own text stays.
    const updated = fs.readFileSync(path.join(dir, 'project_staging_resets.md'), 'utf8');
    expect(updated).toContain('description: Staging database is wiped every Monday at 06:00 UTC\n');
    expect(updated).toContain('\nStaging is reset weekly.\n\n**Update (2026-03-02, session sess-1):** Reset every Monday 06:00 UTC.\n\n**Why:** ops.');
    expect(fs.existsSync(path.join(root, 'x.md'))).toBe(false);
    const request = server.messages()[before]!.body;
    expect(request.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(request.tool_choice).toEqual({ type: 'tool', name: 'memory_operations' });
    expect(request.messages[0].content).toContain('project_staging_resets.md');
    expect(request.messages[0].content).toContain('we never use yarn here, pnpm only');
    // What the agent wrote into an instruction file is shown, so the model can leave it out.
    expect(request.messages[0].content).toContain('[wrote CLAUDE.md: Use pnpm, never yarn.]');
  });

  test("an operation the project's CLAUDE.md already makes is rejected, by its description or its rule", async () => {
    const { root, dir, env } = workspace();
    const claudeEnv = { ...env, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url };
    writeTree(root, { 'CLAUDE.md': '# Conventions\n- Use pnpm, never npm or yarn.\n- Squash commits before merging.\n' });
    const file = transcriptFile(root, [{ user: 'pnpm only; and the staging DB is wiped every Monday', assistant: 'Noted.' }]);
    const create = (file: string, description: string, body: string) => ({ op: 'create', file, name: file, description, type: 'project', body, sources: ['u0'] });
    server.enqueue({
      content: [
        {
          type: 'tool_use',
          id: 'toolu_2',
          name: 'memory_operations',
          input: {
            operations: [
              create('project_pnpm.md', 'The project uses pnpm, never yarn or npm', 'Use pnpm.\n\n**Why:** lockfile.\n**How to apply:** installs.'),
              create('project_merge.md', 'How branches are merged', 'Squash the commits before merging.\n\n**Why:** history.\n**How to apply:** merges.'),
              create('project_staging.md', 'Staging database is wiped every Monday', 'Staging is reset every Monday.\n\n**Why:** ops.\n**How to apply:** keep no data there.'),
            ],
          },
        },
      ],
    });
    const r = await runMemdir(['extract', '--from', file, '--dir', dir, '--engine', 'claude', '--json'], { cwd: root, env: claudeEnv });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.rejected.map((o: { file: string; reason: string }) => `${o.file}: ${o.reason}`)).toEqual([
      'project_pnpm.md: CLAUDE.md already says it',
      'project_merge.md: CLAUDE.md already says it',
    ]);
    expect(memoryFiles(dir)).toEqual(['project_staging.md']);
  });
});
