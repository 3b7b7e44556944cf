import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readTranscript } from '../../src/claude-code/read-transcript.js';
import { DEFAULT_CONFIG, type LintConfig } from '../../src/config/validate.js';
import { rawDirectory } from '../../src/core/dir-model.js';
import { fittedHook } from '../../src/core/memory-index.js';
import { topicFileName } from '../../src/core/paths.js';
import { isGeneratedLine } from '../../src/core/generated-text.js';
import { findDurableStatement, MAX_NAME, proposeMemory, type ProposedMemory } from '../../src/extract/local.js';
import { lintDirectory } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Every labelled message of the extract sets (bench/extract/*.jsonl), as evaluate.js reads them. */
function labelledMessages(): Array<{ id: string; text: string }> {
  const dir = path.join(root, 'bench/extract');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((file) =>
      fs
        .readFileSync(path.join(dir, file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id: string; text: string }),
    );
}

/** Every transcript under test/fixtures, its human prompts with their time. */
async function fixturePrompts(): Promise<Array<{ id: string; text: string; timestamp: string | null }>> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.jsonl')) files.push(full);
    }
  };
  walk(path.join(root, 'test/fixtures'));
  const prompts: Array<{ id: string; text: string; timestamp: string | null }> = [];
  for (const file of files.sort()) {
    const transcript = await readTranscript(file);
    for (const m of transcript.messages) if (m.isHumanPrompt) prompts.push({ id: `${path.relative(root, file)}#${m.uuid}`, text: m.text, timestamp: m.timestamp });
  }
  return prompts;
}

const anchor = new Date('2026-03-02T10:00:00Z');
const reasonLines = (memory: ProposedMemory) => memory.body.split('\n').filter((line) => /^\*\*(?:Why|How to apply):\*\*/.test(line));

describe('the memories the local engine writes, over every labelled set and fixture transcript', async () => {
  const messages = [...labelledMessages(), ...(await fixturePrompts())];
  const written: Array<{ id: string; text: string; statement: string; memory: ProposedMemory }> = [];
  for (const message of messages) {
    const found = findDurableStatement(message.text);
    if (found) written.push({ id: message.id, text: message.text, statement: found.statement, memory: proposeMemory(found, anchor) });
  }

  test('there are enough of them to judge by', () => {
    expect(messages.length).toBeGreaterThan(3000);
    expect(written.length).toBeGreaterThan(250);
  });

  test('no **Why:** or **How to apply:** sentence is shared by memories of different statements, and none is a generic one', () => {
    const seen = new Map<string, string>();
    const shared: string[] = [];
    for (const { memory, id } of written) {
      // The same rule said in two sessions (with and without its reason) is one statement: its rule line.
      const rule = memory.body.split('\n', 1)[0]!.toLowerCase();
      for (const line of reasonLines(memory)) {
        expect(isGeneratedLine(line), `${id}: ${line}`).toBe(false);
        const other = seen.get(line);
        if (other !== undefined && other !== rule) shared.push(`${id}: ${line}`);
        seen.set(line, rule);
      }
    }
    expect(shared).toEqual([]);
  });

  test('no name or description is cut with "…", names are within the limit, a description is not the name again and is its pointer line\'s hook whole', () => {
    const problems: string[] = [];
    for (const { id, text, memory } of written) {
      const typed = text.includes('…');
      if (!typed && (memory.name.includes('…') || memory.description.includes('…'))) problems.push(`${id}: "${memory.name}" / "${memory.description}"`);
      if (memory.name.endsWith('…') || memory.description.endsWith('…')) problems.push(`${id}: ends in …`);
      if ([...memory.name].length > MAX_NAME) problems.push(`${id}: name over ${MAX_NAME}: ${memory.name}`);
      if (memory.description.trim().toLowerCase() === memory.name.trim().toLowerCase()) problems.push(`${id}: description repeats the name`);
      if (/^(?:Project fact|User rule|About the user|Where to look):/.test(memory.description)) problems.push(`${id}: boilerplate lead`);
      // The hook of its pointer line in MEMORY.md is the description itself, whole: it fits the line.
      const hook = fittedHook(memory.name, encodeURI(topicFileName(memory.type, memory.name)), memory.description);
      // (The hook loses a space before punctuation: "in die .env.example" is "in die.env.example" there.)
      if (hook !== memory.description.replace(/\s+([,.;:!?)）])/g, '$1')) problems.push(`${id}: hook "${hook}" is not the description "${memory.description}"`);
    }
    expect(problems).toEqual([]);
  });
});

describe('MEM015 agrees with what extract writes', () => {
  const only015: LintConfig = { ...DEFAULT_CONFIG, rules: Object.fromEntries(RULES.map((r) => [r.id, r.id === 'MEM015' ? 'warning' : 'off'])) };
  const topic = (memory: ProposedMemory, extra = '') =>
    `---\nname: ${JSON.stringify(memory.name)}\ndescription: ${JSON.stringify(memory.description)}\ntype: ${memory.type}\n${extra}---\n${memory.body}\n`;

  test('a memory from a user statement is not asked for reasons the user did not give; without its origin it is', () => {
    const memory = proposeMemory(findDurableStatement('From now on, never use emojis in commit messages.')!, anchor);
    expect(memory.body).toBe('From now on, never use emojis in commit messages.');
    expect(lintDirectory(rawDirectory('/mem', { 'feedback_no_emojis.md': topic(memory, 'originSessionId: s1\noriginMessageUuid: u1\n') }), only015)).toEqual([]);
    expect(lintDirectory(rawDirectory('/mem', { 'feedback_no_emojis.md': topic(memory) }), only015).map((f) => f.message)).toEqual(['feedback memory without **Why:** and **How to apply:**']);
  });

  test('a reason shared word for word by two memories, and the default sentences older versions wrote, are reported on their lines', () => {
    const old = (name: string, rule: string) =>
      `---\nname: ${name}\ndescription: ${rule} in this project\ntype: feedback\noriginMessageUuid: ${name}\n---\n${rule}.\n\n**Why:** the user asked for this to be kept (stated on 2026-03-0${name.length % 9}).\n**How to apply:** follow this in every session of this project unless the user says otherwise.\n`;
    const findings = lintDirectory(rawDirectory('/mem', { 'feedback_tabs.md': old('Tabs', 'Indent with tabs'), 'feedback_pnpm.md': old('Package manager', 'Install with pnpm') }), only015);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.message}`).sort()).toEqual(
      [
        "feedback_pnpm.md:10 **How to apply:** sentence shared word for word with 1 other memory: say this memory's own reason, or drop the line",
        "feedback_pnpm.md:9 **Why:** sentence is a default memdir once wrote into every memory: say this memory's own reason, or drop the line",
        "feedback_tabs.md:10 **How to apply:** sentence shared word for word with 1 other memory: say this memory's own reason, or drop the line",
        "feedback_tabs.md:9 **Why:** sentence is a default memdir once wrote into every memory: say this memory's own reason, or drop the line",
      ].sort(),
    );
  });
});
