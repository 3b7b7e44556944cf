import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { planRefactor } from '../../src/refactor/plan.js';
import { lostLines } from '../../src/restructure/verify.js';
import { decodeMemoryBytes, readMemoryFile } from '../../src/store/files.js';
import { cleanEnv, runMemdir, type CliResult } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/** Text as Latin-1 bytes: "café" becomes caf\xe9, which is not UTF-8. */
const latin1 = (text: string) => Buffer.from(text, 'latin1');
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

function workspace() {
  const root = tempDir();
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const dir = path.join(root, 'memory');
  fs.mkdirSync(dir);
  return { root, dir, env: cleanEnv(home) };
}

const GOOD = '---\nname: Latency dashboard\ndescription: Where the grafana dashboard for API latency lives\ntype: reference\n---\n\nThe latency dashboard is grafana.internal/d/api-latency.\n';
const CAFE = '---\nname: Cafe team\ndescription: Who the café team is and how to reach them\ntype: reference\n---\n\nWe met the café team on Fridays in the atrium.\n';
const INDEX = [
  '# Memory',
  '',
  '## Reference',
  '- [Latency dashboard](reference_latency.md) — Where the grafana dashboard for API latency lives',
  '- [Cafe team](reference_cafe.md) — Who the cafe team is and how to reach them',
  '',
].join('\n');

const oneLine = (r: CliResult) => r.stderr.trim().split('\n');

describe('the one reader', () => {
  test('UTF-8 with or without BOM round-trips byte for byte; UTF-16 with BOM decodes; the rest is left alone with a reason', () => {
    for (const text of ['plain ✓ text\n', '\uFEFF---\nname: x\n---\r\nbody\r\n']) {
      const decoded = decodeMemoryBytes(Buffer.from(text));
      expect(decoded).toEqual({ ok: true, text, encoding: 'UTF-8' });
    }
    expect(decodeMemoryBytes(utf16le(CAFE))).toEqual({ ok: true, text: `\uFEFF${CAFE}`, encoding: 'UTF-16LE' });
    expect(decodeMemoryBytes(utf16be(CAFE))).toEqual({ ok: true, text: `\uFEFF${CAFE}`, encoding: 'UTF-16BE' });
    expect(decodeMemoryBytes(latin1('line one\nWe met the café team.\n'))).toEqual({ ok: false, problem: 'not valid UTF-8 text (byte 0xE9 on line 2); memdir leaves it alone' });
    // A real U+FFFD before the bad byte does not shift where the bad byte is said to be.
    expect(decodeMemoryBytes(Buffer.concat([Buffer.from('\uFFFD\n'), latin1('é')]))).toMatchObject({ ok: false, problem: expect.stringContaining('0xE9 on line 2') });
    expect(decodeMemoryBytes(Buffer.from([0x41, 0, 0x42]))).toMatchObject({ ok: false, problem: expect.stringContaining('NUL bytes') });
    expect(decodeMemoryBytes(Buffer.from(CAFE, 'utf16le'))).toMatchObject({ ok: false, problem: expect.stringContaining('UTF-16 without a byte-order mark') });
    const loneSurrogate = Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x00, 0xd8, 0x42, 0x00]);
    expect(decodeMemoryBytes(loneSurrogate)).toMatchObject({ ok: false, problem: expect.stringContaining('not valid UTF-16LE') });
  });

  test('a prefix may end inside a character; a file over the cap is left alone unread, or read only up to it', () => {
    const bytes = Buffer.from('café ✓');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const decoded = decodeMemoryBytes(bytes.subarray(0, cut), false);
      expect(decoded.ok && 'café ✓'.startsWith(decoded.text)).toBe(true);
    }
    const dir = tempDir();
    const file = path.join(dir, 'big.md');
    fs.writeFileSync(file, 'é'.repeat(1000));
    expect(readMemoryFile(file, { maxBytes: 999 })).toMatchObject({ ok: false, complete: false, size: 2000, problem: expect.stringContaining('2,000 bytes, over the') });
    expect(readMemoryFile(file, { maxBytes: 999, prefix: true })).toMatchObject({ ok: true, complete: false, text: 'é'.repeat(499) });
    expect(readMemoryFile(file, { maxBytes: 2000 })).toMatchObject({ ok: true, complete: true, text: 'é'.repeat(1000) });
    expect(readMemoryFile(path.join(dir, 'missing.md'))).toBeUndefined();
  });

  test('the nothing-lost check fails a plan that would touch a file memdir left alone', () => {
    const anchor = new Date(2026, 0, 1);
    const files = new Map([
      ['MEMORY.md', { text: '- [Cafe](reference_cafe.md) — the cafe team\n', anchor, anchorSource: 'test' }],
      ['reference_cafe.md', { text: '', anchor, anchorSource: 'test', leftAlone: 'not valid UTF-8 text' }],
    ]);
    const plan = planRefactor(files);
    expect(plan.changes.has('reference_cafe.md')).toBe(false);
    const before = new Map([...files].map(([file, f]) => [file, f.text]));
    expect(lostLines(before, plan, ['reference_cafe.md'])).toEqual([]);
    plan.changes.set('reference_cafe.md', '---\nname: Cafe\n---\nstub\n');
    expect(lostLines(before, plan, ['reference_cafe.md'])).toEqual([{ file: 'reference_cafe.md', line: 1, text: '(the whole file, which memdir leaves alone)' }]);
  });
});

describe('item 1: refactor leaves a topic file it cannot decode alone', () => {
  test('a Latin-1 topic file indexed in MEMORY.md keeps its bytes and its pointer', async () => {
    const { root, dir, env } = workspace();
    const cafe = latin1(CAFE);
    writeTree(dir, { 'MEMORY.md': INDEX, 'reference_latency.md': GOOD, 'reference_cafe.md': cafe });
    const r = await runMemdir(['refactor', '--dir', dir], { cwd: root, env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/^ {2}(created|changed) reference_cafe\.md/m);
    expect(r.stdout).toMatch(/reference_cafe\.md: not valid UTF-8 text .*memdir leaves it alone/);
    expect(fs.readFileSync(path.join(dir, 'reference_cafe.md'))).toEqual(cafe);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('- [Cafe team](reference_cafe.md) — Who the cafe team is and how to reach them');
  });

  test('detail lines under the pointer of a file left alone stay under it; a second run changes nothing', async () => {
    const { root, dir, env } = workspace();
    const cafe = latin1(CAFE);
    const index = INDEX.replace('reach them\n', 'reach them\n  - ask for Zoë at the front desk\n');
    writeTree(dir, { 'MEMORY.md': index, 'reference_latency.md': GOOD, 'reference_cafe.md': cafe });
    const r = await runMemdir(['refactor', '--dir', dir], { cwd: root, env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('dropped');
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('reach them\n  - ask for Zoë at the front desk\n');
    const again = await runMemdir(['refactor', '--dir', dir, '--json'], { cwd: root, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ written: false });
    expect(fs.readFileSync(path.join(dir, 'reference_cafe.md'))).toEqual(cafe);
  });

  test('a UTF-16 topic file is read (lint finds its relative date) but never rewritten by lint --fix or refactor', async () => {
    const { root, dir, env } = workspace();
    const freeze = utf16le('---\nname: Freeze\ndescription: The merge freeze for the mobile release branch\ntype: project\n---\n\nThe freeze starts next Thursday.\n');
    writeTree(dir, { 'MEMORY.md': '# Memory\n\n- [Freeze](project_freeze.md) — The merge freeze for the mobile release branch\n', 'project_freeze.md': freeze });
    const fix = await runMemdir(['lint', dir, '--fix', '--format', 'json'], { cwd: root, env });
    const rules = JSON.parse(fix.stdout).results.flatMap((f: { messages: Array<{ ruleId: string }> }) => f.messages.map((m) => m.ruleId));
    expect(rules).toContain('MEM016');
    const refactor = await runMemdir(['refactor', '--dir', dir], { cwd: root, env });
    expect(refactor.code).toBe(0);
    expect(refactor.stdout).toContain('project_freeze.md: UTF-16LE text; memdir reads it but does not rewrite it');
    expect(fs.readFileSync(path.join(dir, 'project_freeze.md'))).toEqual(freeze);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('](project_freeze.md)');
  });

  test('MEMORY.md that is not UTF-8: refactor refuses with one line, nothing changed', async () => {
    const { root, dir, env } = workspace();
    const index = latin1('# Memory\n\n## Decisions\nDeploys freeze on Fridays, agreed with the café team.\n- [Latency dashboard](reference_latency.md) — grafana\n');
    writeTree(dir, { 'MEMORY.md': index, 'reference_latency.md': GOOD });
    for (const extra of [[], ['--dry-run']]) {
      const r = await runMemdir(['refactor', '--dir', dir, ...extra], { cwd: root, env });
      expect(r.code).toBe(2);
      expect(oneLine(r)).toHaveLength(1);
      expect(r.stderr).toMatch(/MEMORY\.md: not valid UTF-8 text.*memdir leaves it alone/);
      expect(fs.readFileSync(path.join(dir, 'MEMORY.md'))).toEqual(index);
      expect(
        fs
          .readdirSync(dir)
          .filter((f) => f !== '.memdir')
          .sort(),
      ).toEqual(['MEMORY.md', 'reference_latency.md']);
    }
  });
});

describe('item 2: lint --fix does not rebuild an index it cannot decode', () => {
  test('the sentence in a Latin-1 MEMORY.md survives lint --fix; lint names the file, not "missing"', async () => {
    const { root, dir, env } = workspace();
    const index = latin1('# Memory\n\n## Decisions\nDeploys freeze on Fridays, agreed with the café team.\n- [Latency dashboard](reference_latency.md) — grafana\n');
    writeTree(dir, { 'MEMORY.md': index, 'reference_latency.md': GOOD, 'reference_unindexed.md': GOOD.replace('Latency dashboard', 'Other dashboard') });
    const lint = await runMemdir(['lint', dir], { cwd: root, env });
    expect(lint.code).toBe(1);
    expect(lint.stdout).toMatch(/not valid UTF-8 text.*memdir leaves it alone/);
    expect(lint.stdout).not.toContain('MEMORY.md is missing');
    const fix = await runMemdir(['lint', dir, '--fix'], { cwd: root, env });
    expect(fix.code).toBe(1);
    expect(fix.stdout).not.toContain('fixed');
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'))).toEqual(index);
  });

  test('lint --fix keeps pointers to topic files it cannot decode (they are not dead)', async () => {
    const { root, dir, env } = workspace();
    const cafe = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    writeTree(dir, { 'MEMORY.md': INDEX, 'reference_latency.md': GOOD, 'reference_cafe.md': cafe });
    const fix = await runMemdir(['lint', dir, '--fix'], { cwd: root, env });
    expect(fix.code).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toBe(INDEX);
    expect(fs.readFileSync(path.join(dir, 'reference_cafe.md'))).toEqual(cafe);
  });
});

describe('item 5: readers stay inside the directory', () => {
  function escapingIndex() {
    const ws = workspace();
    const secret = path.join(ws.root, 'outside.md');
    fs.writeFileSync(secret, 'root:x:0:0:SECRET-OUTSIDE\n');
    fs.symlinkSync(secret, path.join(ws.dir, 'MEMORY.md'));
    writeTree(ws.dir, { 'reference_latency.md': GOOD });
    return ws;
  }

  test('context refuses a MEMORY.md that is a symlink out of the directory, with one line', async () => {
    const { root, dir, env } = escapingIndex();
    const r = await runMemdir(['context', '--dir', dir], { cwd: root, env });
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain('SECRET-OUTSIDE');
    expect(oneLine(r)).toHaveLength(1);
    expect(r.stderr).toMatch(/MEMORY\.md.*outside the memory directory/);
  });

  test('context --hook with the directory from CLAUDE_COWORK_MEMORY_PATH_OVERRIDE does not inject the outside file', async () => {
    const { root, dir, env } = escapingIndex();
    const r = await runMemdir(['context', '--hook'], { cwd: root, env: { ...env, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: dir }, input: JSON.stringify({ cwd: root }) });
    expect(r.stdout).not.toContain('SECRET-OUTSIDE');
    expect(oneLine(r)).toHaveLength(1);
    expect(r.stderr).toMatch(/outside the memory directory/);
  });

  test('lint reports the escaping index as escaping, not as missing', async () => {
    const { root, dir, env } = escapingIndex();
    const r = await runMemdir(['lint', dir], { cwd: root, env });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('MEMORY.md is missing');
    expect(r.stdout).toMatch(/MEMORY\.md.*outside the memory directory/);
    const fix = await runMemdir(['lint', dir, '--fix'], { cwd: root, env });
    expect(fix.code).toBe(1);
    expect(fs.readlinkSync(path.join(dir, 'MEMORY.md'))).toBe(path.join(root, 'outside.md'));
    expect(fs.readFileSync(path.join(root, 'outside.md'), 'utf8')).toBe('root:x:0:0:SECRET-OUTSIDE\n');
  });

  test('recall skips a topic file that is a symlink out of the directory', async () => {
    const { root, dir, env } = workspace();
    const secret = path.join(root, 'secret.md');
    fs.writeFileSync(secret, '---\nname: Latency secret\ndescription: latency dashboard password\ntype: reference\n---\nlatency dashboard SECRET-OUTSIDE\n');
    fs.symlinkSync(secret, path.join(dir, 'reference_secret.md'));
    writeTree(dir, { 'MEMORY.md': INDEX, 'reference_latency.md': GOOD });
    const r = await runMemdir(['recall', '--dir', dir, 'latency dashboard'], { cwd: root, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('reference_latency.md');
    expect(r.stdout).not.toContain('SECRET-OUTSIDE');
  });
});

describe('item 11: two near-duplicate topic files that each have a pointer', () => {
  test('merge without losing either pointer; a second run changes nothing', async () => {
    const { root, dir, env } = workspace();
    const files: Record<string, string> = {
      'MEMORY.md': `# Memory\n\n${[1, 2].map((n) => `- [Existing item ${n}](reference_existing_item_${n}.md) — Existing reference item number ${n} with detail`).join('\n')}\n`,
    };
    for (const n of [1, 2]) {
      files[`reference_existing_item_${n}.md`] =
        `---\nname: Existing item ${n}\ndescription: Existing reference item number ${n} with detail\ntype: reference\n---\n\nExisting reference item number ${n} with detail\n`;
    }
    writeTree(dir, files);
    const first = await runMemdir(['refactor', '--dir', dir], { cwd: root, env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/deleted reference_existing_item_\d\.md \(\d+ lines?\): merged into reference_existing_item_\d\.md/);
    const survivor = fs.readdirSync(dir).filter((f) => f.startsWith('reference_existing'));
    expect(survivor).toHaveLength(1);
    const index = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(index).toContain(`](${survivor[0]})`);
    expect(index).not.toMatch(/\]\(reference_existing_item_\d\.md\)[^\n]*\n[^\n]*\]\(reference_existing_item_\d\.md\)/);
    const kept = `${index}\n${fs.readFileSync(path.join(dir, survivor[0]!), 'utf8')}`;
    for (const n of [1, 2]) {
      expect(kept).toContain(`Existing item ${n}`);
      expect(kept).toContain(`Existing reference item number ${n} with detail`);
    }
    const second = await runMemdir(['refactor', '--dir', dir, '--json'], { cwd: root, env });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ written: false, files: [] });
  });
});

describe('item 12 (part): a CRLF index stays CRLF', () => {
  test('after refactor and after lint --fix', async () => {
    const { root, dir, env } = workspace();
    const crlf = (text: string) => text.replace(/\n/g, '\r\n');
    writeTree(dir, {
      'MEMORY.md': crlf('# Memory\n\n## Reference\n- [Latency dashboard](reference_latency.md) — Where the grafana dashboard for API latency lives\n'),
      'reference_latency.md': GOOD,
      'reference_status.md': GOOD.replace('Latency dashboard', 'Status page').replace('API latency', 'service status'),
    });
    const fix = await runMemdir(['lint', dir, '--fix'], { cwd: root, env });
    expect(fix.stdout).toContain('fixed 1 file');
    const afterFix = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(afterFix).toContain('reference_status.md');
    expect(afterFix.replace(/\r\n/g, '')).not.toContain('\n');

    writeTree(dir, {
      'MEMORY.md': crlf('# Memory\n\nThe build uses pnpm 9; run pnpm -w build first.\n\n- [Latency dashboard](reference_latency.md) — Where the grafana dashboard for API latency lives\n'),
    });
    const r = await runMemdir(['refactor', '--dir', dir], { cwd: root, env });
    expect(r.code).toBe(0);
    const after = fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(after).toContain('\r\n');
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    const again = await runMemdir(['refactor', '--dir', dir, '--json'], { cwd: root, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ written: false });
  });
});

describe('item 13: a topic file over the size cap', () => {
  // 2 MB: 40,000 lines under headings; the word "zanzibar" only past the first megabyte.
  function bigDirectory() {
    const ws = workspace();
    const lines = ['---', 'name: Huge log', 'description: A huge project log pasted into memory by accident', 'type: project', '---', ''];
    for (let i = 0; i < 40_000; i++) {
      if (i % 100 === 0) lines.push(`## Section ${i / 100}`);
      lines.push(`Entry ${i}: the quarterly migration of the billing service ${i < 10 ? 'kumquat' : ''}${i === 39_000 ? 'zanzibar' : ''}`);
    }
    const big = `${lines.join('\n')}\n`;
    writeTree(ws.dir, { 'MEMORY.md': INDEX.replace('reference_cafe.md', 'project_huge.md').replace('Cafe team', 'Huge log'), 'reference_latency.md': GOOD, 'project_huge.md': big });
    return { ...ws, big };
  }

  test('refactor reports it and leaves it alone (no split)', async () => {
    const { root, dir, env, big } = bigDirectory();
    const r = await runMemdir(['refactor', '--dir', dir], { cwd: root, env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/^ {2}changed project_huge\.md/m);
    expect(r.stdout).toMatch(/project_huge\.md: .*over the 1 MB.*memdir leaves it alone/);
    expect(fs.readFileSync(path.join(dir, 'project_huge.md'), 'utf8')).toBe(big);
    expect(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort(),
    ).toEqual(['MEMORY.md', 'project_huge.md', 'reference_latency.md']);
    const lint = await runMemdir(['lint', dir], { cwd: root, env });
    expect(lint.stdout).toMatch(/project_huge\.md[\s\S]*over the 1 MB/);
  });

  test('recall indexes only the first megabyte of it (its words; the sentence model reads the same prefix)', async () => {
    const { root, dir, env } = bigDirectory();
    const early = await runMemdir(['recall', '--dir', dir, '--json', '--no-semantic', 'kumquat migration'], { cwd: root, env });
    expect(JSON.parse(early.stdout).selected.map((m: { path: string }) => m.path)).toContain('project_huge.md');
    const late = await runMemdir(['recall', '--dir', dir, '--json', '--no-semantic', 'zanzibar'], { cwd: root, env });
    expect(JSON.parse(late.stdout).selected).toEqual([]);
  });
});

/** The bad-encoding table: each undecodable (or UTF-16) file × every command that reads the directory. */
describe('bad encodings × commands', () => {
  const CASES: Array<{ name: string; file: string; bytes: Buffer; index: boolean; exit: Record<string, number> }> = [
    { name: 'Latin-1 topic', file: 'reference_cafe.md', bytes: latin1(CAFE), index: false, exit: { lint: 1, fix: 1, refactor: 0, dry: 0, context: 0, recall: 0, save: 0, forget: 0 } },
    { name: 'UTF-16 LE topic with BOM', file: 'reference_cafe.md', bytes: utf16le(CAFE), index: false, exit: { lint: 0, fix: 0, refactor: 0, dry: 0, context: 0, recall: 0, save: 0, forget: 0 } },
    { name: 'UTF-16 BE topic with BOM', file: 'reference_cafe.md', bytes: utf16be(CAFE), index: false, exit: { lint: 0, fix: 0, refactor: 0, dry: 0, context: 0, recall: 0, save: 0, forget: 0 } },
    {
      name: 'binary topic (NUL bytes)',
      file: 'reference_cafe.md',
      bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
      index: false,
      exit: { lint: 1, fix: 1, refactor: 0, dry: 0, context: 0, recall: 0, save: 0, forget: 0 },
    },
    {
      name: 'UTF-16 topic without BOM',
      file: 'reference_cafe.md',
      bytes: Buffer.from(CAFE, 'utf16le'),
      index: false,
      exit: { lint: 1, fix: 1, refactor: 0, dry: 0, context: 0, recall: 0, save: 0, forget: 0 },
    },
    {
      name: 'invalid UTF-8 MEMORY.md',
      file: 'MEMORY.md',
      bytes: latin1(INDEX.replace('cafe team', 'café team')),
      index: true,
      exit: { lint: 1, fix: 1, refactor: 2, dry: 2, context: 2, recall: 0, save: 2, forget: 2 },
    },
    { name: 'UTF-16 LE MEMORY.md with BOM', file: 'MEMORY.md', bytes: utf16le(INDEX), index: true, exit: { lint: 0, fix: 0, refactor: 2, dry: 2, context: 0, recall: 0, save: 2, forget: 2 } },
  ];
  const COMMANDS: Record<string, (dir: string) => string[]> = {
    lint: (dir) => ['lint', dir],
    fix: (dir) => ['lint', dir, '--fix'],
    refactor: (dir) => ['refactor', '--dir', dir],
    dry: (dir) => ['refactor', '--dir', dir, '--dry-run'],
    context: (dir) => ['context', '--dir', dir],
    recall: (dir) => ['recall', '--dir', dir, 'cafe team atrium latency'],
    save: (dir) => ['save', '--dir', dir, '--type', 'user', '--name', 'Role', '--description', 'User is a data engineer on billing', '--body', 'Data engineer.'],
    forget: (dir) => ['forget', '--dir', dir, 'reference_latency.md'],
  };

  for (const c of CASES) {
    for (const [command, args] of Object.entries(COMMANDS)) {
      test(`${c.name} × ${command}`, async () => {
        const { root, dir, env } = workspace();
        writeTree(dir, { 'MEMORY.md': INDEX, 'reference_latency.md': GOOD, 'reference_cafe.md': CAFE, [c.file]: c.bytes });
        const r = await runMemdir(args(dir), { cwd: root, env });
        expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: c.exit[command] });
        expect(r.stderr).not.toMatch(/\n\s+at /);
        expect(fs.readFileSync(path.join(dir, c.file))).toEqual(c.bytes);
        if (r.code === 2) {
          expect(oneLine(r)).toHaveLength(1);
          expect(r.stderr).toContain(c.file);
        }
        if (command === 'lint' && c.exit.lint === 1) expect(r.stdout).toMatch(new RegExp(`${c.file}[\\s\\S]*memdir leaves it alone`));
        if (!c.index && (command === 'refactor' || command === 'fix')) {
          expect(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('](reference_cafe.md)');
        }
      });
    }
  }
});
