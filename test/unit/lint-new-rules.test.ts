import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/validate.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { lintDirectory } from '../../src/lint/engine.js';

const topic = (body: string, description = 'The storage vendor contact for the contract renewal') => `---\nname: Vendor\ndescription: ${description}\ntype: project\n---\n${body}\n`;

function findings(files: Record<string, string>, rule: string, inRepository = true, userEmail?: string) {
  const raw = rawDirectory('/mem', files);
  if (inRepository) for (const file of Object.keys(files)) raw.repoFiles.add(file);
  if (userEmail) raw.userEmail = userEmail;
  return lintDirectory(raw, DEFAULT_CONFIG).filter((f) => f.ruleId === rule);
}

describe('MEM024 personal data', () => {
  const files = { 'project_vendor.md': topic('Jane (jane.doe@acme-storage.io, +44 20 7946 0958) owns it; I am me@home.dev; write to support@acme-storage.io or dev@example.com.') };
  test('e-mails and phones of people in a repository, not the own address, role addresses or documentation domains; never printed', () => {
    const found = findings(files, 'MEM024', true, 'me@home.dev');
    expect(found.map((f) => f.column)).toEqual([7, 33]);
    expect(JSON.stringify(found)).not.toMatch(/jane|7946/);
  });
  test("outside a repository the memory is the user's own", () => expect(findings(files, 'MEM024', false)).toEqual([]));
});

describe('MEM025 stale marker', () => {
  const index = '- [Vendor](project_vendor.md) — storage vendor contact\n';
  test('a memory marked superseded or 废弃 in its description or first line, still indexed', () => {
    expect(findings({ 'MEMORY.md': index, 'project_vendor.md': topic('> ★ SUPERSEDED 2026-05-04 KST. See the new vendor.') }, 'MEM025')).toHaveLength(1);
    expect(findings({ 'MEMORY.md': index, 'project_vendor.md': topic('旧供应商。', '已废弃：旧的存储供应商联系方式') }, 'MEM025')).toHaveLength(1);
  });
  test('a marker deep in the body, or on a memory no longer indexed, is left alone', () => {
    expect(findings({ 'MEMORY.md': index, 'project_vendor.md': topic('Current vendor.\n\n~~SUPERSEDED (old plan):~~ the first quote.') }, 'MEM025')).toEqual([]);
    expect(findings({ 'MEMORY.md': '', 'project_vendor.md': topic('SUPERSEDED by the new vendor.') }, 'MEM025')).toEqual([]);
  });
});
