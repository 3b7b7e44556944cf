import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { leftovers, pointerTargets, STACK_TRACE } from '../helpers/reliability.js';
import { cleanEnv, runMemdir, type CliResult } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

// 30 processes of every writer (and the recall hook, which writes session state) on one directory
// at once. Names are disjoint per process and forgets touch only memories saved before the trial, so
// the final state is known: every memory saved and not forgotten is there with exactly one pointer.

const SYLLABLES = ['ka', 'lo', 'mi', 'nu', 'pe', 'ri', 'so', 'ta', 'vu', 'xe'];
/** A made-up word per number: memories share no content words, so refactor never merges them. */
const word = (n: number) => [...String(n).padStart(3, '0')].map((d) => SYLLABLES[Number(d)]).join('');
const words = (n: number, count = 4) => Array.from({ length: count }, (_, i) => word(n * count + i)).join(' ');

const SEEDS = 14;
const UPDATED = [0, 1, 2, 3, 4];
const FORGOTTEN = [5, 6, 7, 8, 9];
const NEW_SAVES = 8;

const seedFile = (i: number) => `reference_seed_${i}.md`;
const seedBody = (i: number) => `The ${words(i)} records are kept here.`;
const updatedBody = (i: number) => `Moved: the ${words(100 + i)} records are kept here now.`;
const workerBody = (i: number) => `The ${words(200 + i)} ledger lives here.`;

function seedDirectory(dir: string): void {
  const files: Record<string, string> = {};
  const pointers: string[] = [];
  for (let i = 0; i < SEEDS; i++) {
    const description = `where the ${word(i * 4)} records live`;
    files[seedFile(i)] = `---\nname: Seed ${i}\ndescription: ${description}\ntype: reference\n---\n\n${seedBody(i)}\n`;
    pointers.push(`- [Seed ${i}](${seedFile(i)}) — ${description}`);
  }
  files['MEMORY.md'] = `# Memory\n\n${pointers.join('\n')}\n`;
  writeTree(dir, files);
}

/** Each process of the mix: its arguments, stdin, and the exit codes it may end with. */
interface Job {
  what: string;
  args: string[];
  input?: string;
  codes: number[];
  /** What stdout must be, when it matters. */
  output?: (stdout: string) => boolean;
}

/** A hook answers nothing, or one JSON document for Claude Code. */
function isHookAnswer(stdout: string): boolean {
  try {
    return stdout === '' || typeof JSON.parse(stdout).hookSpecificOutput.additionalContext === 'string';
  } catch {
    return false;
  }
}

function mix(root: string): Job[] {
  const save = (name: string, body: string): string[] => ['save', '--type', 'reference', '--name', name, '--description', `where the ${name.toLowerCase()} data lives`, '--body', body];
  const jobs: Job[] = [
    ...Array.from({ length: NEW_SAVES }, (_, i) => ({ what: `save Worker ${i}`, args: save(`Worker ${i}`, workerBody(i)), codes: [0] })),
    ...UPDATED.map((i) => ({ what: `update Seed ${i}`, args: save(`Seed ${i}`, updatedBody(i)), codes: [0] })),
    ...FORGOTTEN.map((i) => ({ what: `forget Seed ${i}`, args: ['forget', seedFile(i)], codes: [0] })),
    ...Array.from({ length: 4 }, () => ({ what: 'lint --fix', args: ['lint', '--fix'], codes: [0, 1] })),
    ...Array.from({ length: 4 }, () => ({ what: 'refactor', args: ['refactor'], codes: [0] })),
    ...Array.from({ length: 4 }, (_, i) => ({
      what: 'recall --hook',
      args: ['recall', '--hook'],
      input: JSON.stringify({ session_id: `session-${i}`, hook_event_name: 'UserPromptSubmit', cwd: root, prompt: `where do the ${word(i * 4)} records live` }),
      codes: [0],
      output: isHookAnswer,
    })),
  ];
  expect(jobs).toHaveLength(30);
  return jobs;
}

/** name → file for every topic file, read from its frontmatter. */
function memoriesByName(dir: string): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.md') || file === 'MEMORY.md' || file.startsWith('.memdir')) continue;
    const name = /^name: *["']?(.*?)["']? *$/m.exec(fs.readFileSync(path.join(dir, file), 'utf8'))?.[1] ?? `(no name) ${file}`;
    byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  return byName;
}

describe('concurrency mix', () => {
  test.each([1, 2, 3, 4, 5])('trial %i: 30 processes of save, update, forget, lint --fix, refactor and recall --hook lose nothing', async () => {
    const root = tempDir();
    const dir = path.join(root, 'memory');
    seedDirectory(dir);
    const env = cleanEnv(path.join(root, 'home'), { CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: dir });

    const jobs = mix(root);
    const results: CliResult[] = await Promise.all(jobs.map((job) => runMemdir(job.args, { cwd: root, env, input: job.input, timeoutMs: 90_000 })));
    const failures = jobs.flatMap((job, i) => {
      const r = results[i]!;
      const ok = job.codes.includes(r.code) && !STACK_TRACE.test(r.stderr) && (job.output?.(r.stdout) ?? true);
      return ok ? [] : [`${job.what}: exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`];
    });
    expect(failures).toEqual([]);

    const expected = new Map<string, string>([
      ...UPDATED.map((i) => [`Seed ${i}`, updatedBody(i)] as const),
      ...Array.from({ length: SEEDS }, (_, i) => i)
        .filter((i) => !UPDATED.includes(i) && !FORGOTTEN.includes(i))
        .map((i) => [`Seed ${i}`, seedBody(i)] as const),
      ...Array.from({ length: NEW_SAVES }, (_, i) => [`Worker ${i}`, workerBody(i)] as const),
    ]);
    const found = memoriesByName(dir);
    expect([...found.keys()].sort()).toEqual([...expected.keys()].sort());
    const pointers = pointerTargets(fs.readFileSync(path.join(dir, 'MEMORY.md'), 'utf8'));
    for (const [name, body] of expected) {
      const files = found.get(name)!;
      expect(files, name).toHaveLength(1);
      expect(fs.readFileSync(path.join(dir, files[0]!), 'utf8'), name).toContain(body);
      expect(
        pointers.filter((p) => p === files[0]),
        `pointers to ${name}`,
      ).toHaveLength(1);
    }
    expect(pointers).toHaveLength(expected.size);

    const lint = await runMemdir(['lint', '--format', 'json'], { cwd: root, env });
    const rules = JSON.parse(lint.stdout).results.flatMap((f: { messages: Array<{ ruleId: string }> }) => f.messages.map((m) => m.ruleId));
    // dead, escaping, unindexed, duplicate pointers
    expect(rules.filter((r: string) => ['MEM006', 'MEM007', 'MEM008', 'MEM009'].includes(r))).toEqual([]);
    expect(leftovers(dir)).toEqual([]);
  });
});
