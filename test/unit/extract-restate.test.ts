import { messages } from '../../src/core/messages.js';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { memoryFields, parseTopicFile } from '../../src/core/topic-file.js';
import { bodyParts, claimText, comparedMemory, contradictingTerms, lastChanged, replacedBody, restatementScore, saysItChanged, updateLine } from '../../src/extract/restate.js';
import { repoRoot } from '../helpers/run-cli.js';

const RULE = 'We deploy with make ship, never with npm run deploy.';
const memdirWritten = [
  RULE,
  '',
  '**Why:** npm run deploy skips the smoke tests.',
  '**How to apply:** follow this in every session of this project unless the user says otherwise.',
  '',
  '**Update (2026-12-03, session s2):** Deployments go through make ship, not npm run deploy.',
].join('\n');

describe('restatementScore: the near-duplicate measure over a memory’s name, description, claim and updates', () => {
  test('a restatement in other words matches the claim even when the name and description say something else', () => {
    const memory = { name: 'Deploy command', description: 'How this project is deployed to production', body: `${RULE}\n` };
    expect(restatementScore('deployments go through make ship, not npm run deploy', memory)).toBeGreaterThanOrEqual(0.5);
    expect(restatementScore('deployments go through make ship, not npm run deploy', { ...memory, body: '' })).toBeLessThan(0.5);
  });

  test('a different rule sharing many words does not', () => {
    expect(
      restatementScore('Never deploy without a review.', { name: 'Never deploy on Fridays', description: 'Project fact: Never deploy on Fridays', body: 'Never deploy on Fridays.\n' }),
    ).toBeLessThan(0.5);
  });

  test('an update line counts as the memory’s; a statement with no search term is compared word for word', () => {
    expect(restatementScore('Deployments go through make ship, not npm run deploy.', { name: 'x', description: 'y', body: memdirWritten })).toBe(1);
    expect(restatementScore("That's what I want.", { name: "That's what I want", description: "User rule: That's what I want", body: "That's what I want.\n" })).toBe(1);
    expect(restatementScore("That's not it.", { name: "That's what I want", description: "User rule: That's what I want", body: "That's what I want.\n" })).toBe(0);
  });

  // The measurement behind NEAR_DUPLICATE for a statement against a memory's claim: every memory of
  // the real directories, its claim taken as a statement said again, against every other memory of
  // its directory. At 0.5 the only matches are memories that are the same rule or fact twice.
  test('on the real memory directories, only true twins match at 0.5', () => {
    const roots = [path.join(repoRoot, 'test/fixtures/real'), path.join(repoRoot, 'test/fixtures/shared/memory')];
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) return files(file);
        return e.name.endsWith('.md') && e.name !== 'MEMORY.md' && !e.name.startsWith('SOURCES') ? [file] : [];
      });
    const matches: string[] = [];
    let compared = 0;
    for (const root of roots) {
      for (const project of fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory())) {
        const memories = files(path.join(root, project)).map((file) => {
          const parsed = parseTopicFile(fs.readFileSync(file, 'utf8')).file;
          const fields = memoryFields(parsed.frontmatter?.data ?? {});
          const parts = bodyParts(parsed.body);
          const memory = { name: fields.name, description: fields.description, body: parsed.body };
          return { file: path.basename(file), compared: comparedMemory(memory), claim: parts.claim === -1 ? '' : claimText({ body: parsed.body }) };
        });
        for (const a of memories) {
          if (!a.claim) continue;
          for (const b of memories) {
            if (a === b) continue;
            compared++;
            if (restatementScore(a.claim, b.compared) >= 0.5) matches.push(`${project}: ${a.file} -> ${b.file}`);
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(15_000);
    expect(matches.sort()).toEqual(
      [
        // Two files holding the same rule word for word.
        'martinambrus+RDForward: feedback_no_server_start.md -> feedback_restart_server.md',
        'martinambrus+RDForward: feedback_restart_server.md -> feedback_no_server_start.md',
        // A session log and the topic file made from it: the same fact.
        '4444J99+application-pipeline: project_freshness_gate_2026-03-15.md -> project_session_2026-03-15.md',
        '4444J99+application-pipeline: project_session_2026-03-15.md -> project_freshness_gate_2026-03-15.md',
      ].sort(),
    );
  });
});

describe('contradictingTerms: what one statement says and the other denies', () => {
  test.each([
    [RULE, 'we now deploy with npm run release instead of make ship', ['ship', 'npm', 'run']],
    [RULE, 'From now on we deploy with npm run release, not make ship.', ['ship', 'npm', 'run']],
    [RULE, 'We deploy with npm run deploy, never with make ship.', ['ship', 'npm', 'run']],
    [RULE, 'We no longer deploy with make ship.', ['ship']],
    [RULE, "We don't use make ship anymore.", ['ship']],
    [RULE, 'Deployments go through make ship, not npm run deploy.', []],
    [RULE, 'From now on, we deploy with make ship, never with npm run deploy.', []],
    ['Use pnpm and never npm.', 'Use pnpm, not npm.', []],
    ['Never deploy on Fridays.', 'Never deploy without a review.', []],
  ])('%s / %s', (earlier, later, terms) => {
    expect(contradictingTerms(earlier, later).sort()).toEqual([...terms].sort());
  });
});

describe('saysItChanged', () => {
  test.each([
    ['we now deploy with npm run release', 'now'],
    ['From now on we deploy with npm run release', 'from now on'],
    ['We no longer deploy with make ship', 'no longer'],
    ['use npm run release instead of make ship', 'instead'],
    ['we switched to npm run release', 'switched'],
    ['We deploy with npm run release, never with make ship.', undefined],
  ])('%s', (statement, marker) => {
    expect(saysItChanged(statement)).toBe(marker);
  });
});

describe('lastChanged', () => {
  test('the latest of the update days (their end), `modified` and the file time; unknown is never older', () => {
    expect(lastChanged({ body: memdirWritten })).toBe(Date.parse('2026-12-03T23:59:59.999Z'));
    expect(lastChanged({ body: memdirWritten, modified: '2026-12-10', mtimeMs: Date.parse('2026-12-01T00:00:00Z') })).toBe(Date.parse('2026-12-10T00:00:00Z'));
    expect(lastChanged({ body: RULE, mtimeMs: 5 })).toBe(5);
    expect(lastChanged({ body: RULE })).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('replacedBody', () => {
  const note = (was: string) => updateLine('2026-12-05', 's4', `the user changed this; before, it said: "${was}"`);

  test('a memory in memdir’s shape gets the new text whole; its reason goes with the old claim into the note; updates stay', () => {
    expect(replacedBody(memdirWritten, 'From now on we deploy with npm run release.\n\n**How to apply:** any deploy.', note)).toBe(
      [
        'From now on we deploy with npm run release.',
        '',
        '**How to apply:** any deploy.',
        '',
        '**Update (2026-12-03, session s2):** Deployments go through make ship, not npm run deploy.',
        '',
        '**Update (2026-12-05, session s4):** the user changed this; before, it said: "We deploy with make ship, never with npm run deploy. **Why:** npm run deploy skips the smoke tests."',
      ].join('\n'),
    );
  });

  test('a hand-written memory keeps every line but its claim', () => {
    const body = ['# Deploying', '', RULE, '', '- staging first', '- then production', ''].join('\n');
    expect(replacedBody(body, 'We now deploy with npm run release.\n\n**Why:** faster.', note)).toBe(
      [
        '# Deploying',
        '',
        'We now deploy with npm run release.',
        '',
        '- staging first',
        '- then production',
        '',
        '**Update (2026-12-05, session s4):** the user changed this; before, it said: "We deploy with make ship, never with npm run deploy."',
      ].join('\n'),
    );
  });
});

describe('what extract says of a replaced or contradicted memory', () => {
  test("the memory's old text is printed with its control characters escaped (a hand-written memory may hold any)", () => {
    const was = 'Deploy with \u001b[31mmake ship\u001b[0m\u202e';
    for (const line of [messages.extractReplaced('feedback_deploy.md', was), messages.extractMayContradict('feedback_deploy.md', was, 'older')]) {
      expect(line).not.toMatch(/[\u001b\u202e]/);
      expect(line).toContain('Deploy with \\u001b[31mmake ship\\u001b[0m\\u202e');
    }
  });
});
