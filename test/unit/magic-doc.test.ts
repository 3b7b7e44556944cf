import { describe, expect, test } from 'vitest';
import { checkRewrite, MAGIC_DOC_GROWTH_BYTES, MAGIC_DOC_MAX_BYTES, magicDocHead } from '../../src/core/magic-doc.js';
import { parseTranscriptText } from '../../src/claude-code/transcript.js';
import { concerns, newFacts, readsDoc, touchedBy } from '../../src/docs/turn.js';

describe('magicDocHead', () => {
  test.each<[string, string, ReturnType<typeof magicDocHead>]>([
    ['header alone', '# MAGIC DOC: Changelog\n- one\n', { title: 'Changelog', instructions: undefined, head: '# MAGIC DOC: Changelog' }],
    ['underscore instructions', '# MAGIC DOC: API\n_One line per endpoint._\n', { title: 'API', instructions: 'One line per endpoint.', head: '# MAGIC DOC: API\n_One line per endpoint._' }],
    ['star instructions after a blank line', '# MAGIC DOC: API\n\n*Terse.*\n\ntext', { title: 'API', instructions: 'Terse.', head: '# MAGIC DOC: API\n\n*Terse.*' }],
    ['bold is not instructions', '# MAGIC DOC: API\n**Bold**\n', { title: 'API', instructions: undefined, head: '# MAGIC DOC: API' }],
    ['CRLF and BOM', '\uFEFF# MAGIC DOC: Deps  \r\n_keep the table_\r\n', { title: 'Deps', instructions: 'keep the table', head: '\uFEFF# MAGIC DOC: Deps  \r\n_keep the table_' }],
    ['no newline at all', '# MAGIC DOC: Only', { title: 'Only', instructions: undefined, head: '# MAGIC DOC: Only' }],
  ])('%s', (_label, text, expected) => {
    expect(magicDocHead(text)).toEqual(expected);
  });

  test.each(['# MAGIC DOC:\n', '# MAGIC DOC: \n', 'intro\n# MAGIC DOC: Late\n', '## MAGIC DOC: Two hashes\n', '# magic doc: lower\n', ''])('not a Magic Doc: %j', (text) => {
    expect(magicDocHead(text)).toBeUndefined();
  });
});

describe('checkRewrite', () => {
  const old = '# MAGIC DOC: API\n_One line per endpoint._\n\n- GET /users\n';

  test('a new line added passes; the old final newline is carried over', () => {
    expect(checkRewrite(old, `${old}- DELETE /users/:id`)).toEqual({ text: `${old}- DELETE /users/:id\n` });
  });

  test('CRLF docs get CRLF back from an LF answer, and the head still matches byte for byte', () => {
    const crlf = old.replace(/\n/g, '\r\n');
    expect(checkRewrite(crlf, `${old}- X\n`)).toEqual({ text: `${old}- X\n`.replace(/\n/g, '\r\n') });
  });

  test('a byte-order mark the answer left out is put back', () => {
    expect(checkRewrite(`\uFEFF${old}`, `${old}- X\n`)).toEqual({ text: `\uFEFF${old}- X\n` });
  });

  test.each<[string, string, string]>([
    ['header dropped', '# API\n_One line per endpoint._\n', 'header'],
    ['title changed', '# MAGIC DOC: API v2\n_One line per endpoint._\n', 'header'],
    ['instructions changed', '# MAGIC DOC: API\n_Anything goes._\n', 'header'],
    ['instructions dropped', '# MAGIC DOC: API\n\n- GET /users\n', 'header'],
    ['text glued to the instructions line', '# MAGIC DOC: API\n_One line per endpoint._ and more\n', 'header'],
    ['empty', '  \n', 'empty'],
    ['a NUL', `${old}\0`, 'nul'],
  ])('%s is refused (%s)', (_label, proposed, problem) => {
    expect(checkRewrite(old, proposed).problem).toBe(problem);
  });

  test('growth: up to twice the old size plus a constant, less than tenfold, never past the size limit', () => {
    const long = `${old}${'- GET /item: one endpoint\n'.repeat(40)}`;
    const room = Buffer.byteLength(long) + MAGIC_DOC_GROWTH_BYTES;
    expect(checkRewrite(long, `${long}${'x'.repeat(room - 1)}`).problem).toBeUndefined();
    expect(checkRewrite(long, `${long}${'x'.repeat(room + 1)}`).problem).toBe('growth');
    // A small doc may not grow tenfold in one answer, whatever the constant allows.
    expect(checkRewrite(old, `${old}${'x'.repeat(8 * old.length)}`).problem).toBeUndefined();
    expect(checkRewrite(old, `${old}${'x'.repeat(9 * old.length)}`).problem).toBe('growth');
    const big = `${old}${'y'.repeat(MAGIC_DOC_MAX_BYTES - 1000)}\n`;
    expect(checkRewrite(big, `${big}${'z'.repeat(2000)}`).problem).toBe('too-large');
  });

  test('a secret the answer adds is refused; one the doc already held is not a new one', () => {
    const token = `${'ghp_'}a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8`;
    expect(checkRewrite(old, `${old}- token: ${token}\n`)).toMatchObject({ problem: 'secret', rule: expect.any(String) });
    const holding = `${old}- token: ${token}\n`;
    expect(checkRewrite(holding, `${holding}- GET /health\n`).problem).toBeUndefined();
  });
});

describe('tool results in the transcript reader', () => {
  const lines = [
    { type: 'user', uuid: 'u1', message: { role: 'user', content: 'go' } },
    {
      type: 'user',
      uuid: 'u2',
      toolUseResult: {},
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'x'.repeat(50) },
          { type: 'tool_result', tool_use_id: 't2', is_error: true, content: [{ type: 'text', text: 'exit 1' }, { type: 'image' }] },
        ],
      },
    },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n');

  test('kept only when asked, each cut at the limit', () => {
    expect(parseTranscriptText(lines).messages[1]!.toolResults).toBeUndefined();
    expect(parseTranscriptText(lines, { toolResultChars: 10 }).messages[1]!.toolResults).toEqual([
      { toolUseId: 't1', text: 'x'.repeat(10), isError: false },
      { toolUseId: 't2', text: 'exit 1', isError: true },
    ]);
  });
});

describe('what a turn did, for memdir docs', () => {
  const root = '/repo';
  const doc = { path: 'docs/api.md', file: '/repo/docs/api.md', title: 'API endpoints', instructions: undefined, bytes: 100 };
  const token = `${'ghp_'}a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8`;
  const messages = parseTranscriptText(
    [
      { type: 'user', uuid: 'u1', message: { role: 'user', content: 'wire the health check' } },
      {
        type: 'assistant',
        uuid: 'a1',
        message: {
          id: 'm1',
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'Edit', input: { file_path: '/repo/src/server.ts' } },
            { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'npm run build && npm test' } },
            { type: 'tool_use', id: 't3', name: 'Edit', input: { file_path: '/repo/docs/guide/health.md' } },
          ],
        },
      },
      { type: 'user', uuid: 'u2', toolUseResult: {}, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: `built with GITHUB_TOKEN=${token}` }] } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n'),
    { toolResultChars: 4000 },
  ).messages;

  test('the facts sent to the model hold what was asked, done and answered, with secrets redacted', () => {
    const facts = newFacts(messages, root);
    expect(facts).toContain('wire the health check');
    expect(facts).toContain('[Edit src/server.ts]');
    expect(facts).toContain('[Bash: npm run build &amp;&amp; npm test]');
    expect(facts).toContain('[REDACTED]');
    expect(facts).not.toContain(token);
  });

  test('a doc is read by a Read of its file or its header in a tool result, not by being named', () => {
    expect(readsDoc(messages, doc, root)).toBe(false);
    const read = parseTranscriptText(
      JSON.stringify({ type: 'assistant', uuid: 'a', message: { id: 'm', role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: 'docs/api.md' } }] } }),
    ).messages;
    expect(readsDoc(read, doc, root)).toBe(true);
  });

  test('what concerns a doc: a file or command it names, a file edited in its folder, a file whose words are in its title', () => {
    const touched = touchedBy(messages, root);
    expect(concerns(doc, '# MAGIC DOC: API endpoints\nBuilt by npm run build from src/server.ts\n', touched)).toEqual([
      { kind: 'edited', what: 'src/server.ts', why: 'named in the doc' },
      { kind: 'ran', what: 'npm run build && npm test', why: 'named in the doc' },
      { kind: 'edited', what: 'docs/guide/health.md', why: "in the doc's folder" },
    ]);
    const health = { ...doc, path: 'ops/health.md', file: '/repo/ops/health.md', title: 'Health checks' };
    expect(concerns(health, '# MAGIC DOC: Health checks\n', touched)).toEqual([{ kind: 'edited', what: 'docs/guide/health.md', why: 'matches the title' }]);
  });
});
