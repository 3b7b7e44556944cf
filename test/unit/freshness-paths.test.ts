import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ageInDays, freshnessHeader } from '../../src/core/freshness.js';
import { sanitizeProjectPath, slugify, topicFileName, validateMemoryPath, displayPath } from '../../src/core/paths.js';

describe('freshness', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');
  const day = 86_400_000;
  test('age in whole days, never negative', () => {
    expect(ageInDays(now - 0.5 * day, now)).toBe(0);
    expect(ageInDays(now - 1.5 * day, now)).toBe(1);
    expect(ageInDays(now - 47 * day, now)).toBe(47);
    expect(ageInDays(now + day, now)).toBe(0);
  });
  test('headers', () => {
    expect(freshnessHeader('a.md', now - 3_600_000, now)).toBe('Memory (saved today): a.md:');
    expect(freshnessHeader('a.md', now - 30 * 3_600_000, now)).toBe('Memory (saved yesterday): a.md:');
    expect(freshnessHeader('a.md', now - 47 * day, now)).toBe(
      'This memory is 47 days old. Memories are point-in-time observations, not live state — claims about code behavior or file:line citations may be outdated. Verify against current code before asserting as fact.\nMemory: a.md:',
    );
  });
});

describe('project path sanitizing', () => {
  test('every non-alphanumeric character becomes a dash', () => {
    expect(sanitizeProjectPath('/home/a/my.app')).toBe('-home-a-my-app');
    // Observed with Claude Code 2.1.197 (fixtures/claude-code-2.1.197/README.md).
    expect(sanitizeProjectPath('/a/my.repo with space-é')).toBe('-a-my-repo-with-space--');
  });
  test('past 200 characters: first 200, a dash and a base-36 hash', () => {
    const long = `/${'deep/'.repeat(50)}repo`;
    const out = sanitizeProjectPath(long);
    expect(out.slice(0, 200)).toBe(long.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200));
    expect(out).toMatch(/^.{200}-[0-9a-z]+$/);
    expect(sanitizeProjectPath(`${long}x`)).not.toBe(out);
  });
});

describe('override validation', () => {
  const home = '/home/dev';
  const ok = (p: string, expandTilde = true) => validateMemoryPath(p, { expandTilde, home });
  test('absolute paths are normalized', () => {
    expect(ok('/srv/memory//team/')).toEqual({ ok: true, path: '/srv/memory/team' });
  });
  test('~/ is expanded only where allowed', () => {
    expect(ok('~/notes/mem')).toEqual({ ok: true, path: path.join(home, 'notes/mem') });
    expect(ok('~/notes', false).ok).toBe(false);
  });
  test.each([
    ['relative', 'memory'],
    ['root', '/'],
    ['too short', '/a'],
    ['UNC', '//server/share'],
    ['NUL byte', '/tmp/mem\0ory'],
    ['home itself', '~/'],
    ['outside home', '~/../etc'],
  ])('rejects %s', (_label, value) => expect(ok(value).ok).toBe(false));
});

describe('topic file names', () => {
  test('type prefix and ASCII slug', () => {
    expect(topicFileName('feedback', 'Terse replies, please!')).toBe('feedback_terse_replies_please.md');
    expect(slugify('Café déjà vu')).toBe('cafe_deja_vu');
  });
  test('names without ASCII letters get a stable hash', () => {
    expect(slugify('合并冻结')).toMatch(/^memory_[0-9a-z]+$/);
    expect(slugify('合并冻结')).toBe(slugify('合并冻结'));
    expect(slugify('合并冻结')).not.toBe(slugify('发布计划'));
  });
});

describe('displayPath', () => {
  test('relative inside the folder, as given outside it', () => {
    expect(displayPath('/home/a/app/CLAUDE.md', '/home/a/app')).toBe('CLAUDE.md');
    expect(displayPath('/home/a/app/docs/x.md', '/home/a/app')).toBe('docs/x.md');
    expect(displayPath('/home/a/CLAUDE.md', '/home/a/app')).toBe('/home/a/CLAUDE.md');
    expect(displayPath('/home/a/app', '/home/a/app')).toBe('/home/a/app');
    expect(displayPath('/home/a/app2/x.md', '/home/a/app')).toBe('/home/a/app2/x.md');
  });
});
