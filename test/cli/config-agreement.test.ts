import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot, runMemdir, type CliResult } from '../helpers/run-cli.js';
import { teamSetup } from '../helpers/team-sync.js';
import { writeTree } from '../helpers/temp.js';

/**
 * Every command reads memdir.config.json through one loader, so each agrees about a file: a bad one
 * is rejected by all of them with the same line naming the file and the problem, a good one by none.
 * The contract asserted, per form:
 * - a command run by hand: exit 2, stdout empty, stderr exactly `memdir: FILE: PROBLEM`;
 * - a hook (`--hook`): exit 0 (a hook never blocks the agent), stdout empty (no context added),
 *   stderr exactly `memdir NAME hook skipped: FILE: PROBLEM`.
 * Accepted: exit 0 and no line naming the file.
 */
const CASES: Array<[string, string, RegExp | undefined]> = [
  ['an unknown rule name', JSON.stringify({ rules: { 'NO-SUCH-RULE': 'off' } }), /^rules\.NO-SUCH-RULE: unknown rule id, name or tag$/],
  ['a bad severity', JSON.stringify({ rules: { MEM004: 'loud' } }), /^rules\.MEM004: must be one of off, info, warning, error, or an object of options$/],
  ['an unknown top-level key', JSON.stringify({ recal: { limit: 3 } }), /^recal: unknown key \(expected rules, ignore, skipIndex, recall, extract, session, docs, dream, sync, guard, hooks\)$/],
  ['a wrong type for a section field', JSON.stringify({ dream: { minHours: '24' } }), /^dream\.minHours: must be a number$/],
  ['malformed JSON', '{"rules": {"MEM004": "off"', /^not valid JSON \(.+\)$/],
  [
    'a valid file (the control)',
    JSON.stringify({ $schema: './node_modules/memdir/memdir.config.schema.json', rules: { MEM004: 'off', style: 'warn' }, recall: { limit: 3 }, dream: { minHours: 48 } }),
    undefined,
  ],
];

const TRANSCRIPT = path.join(repoRoot, 'test/fixtures/shared/claude-code-2.1.197/session-writes-memory.jsonl');
const MEMORIES = {
  'MEMORY.md': '- [Role](user_role.md) — data engineer on the billing team\n- [Deploys](project_deploys.md) — how deploys of the billing service go\n',
  'user_role.md': '---\nname: Role\ndescription: data engineer on the billing team\ntype: user\n---\nThe user is a data engineer on the billing team.\n',
  'project_deploys.md': '---\nname: Deploys\ndescription: how deploys of the billing service go\ntype: project\n---\nDeploy the billing service on Tuesdays only.\n',
};

interface Run {
  name: string;
  args: string[];
  /** The hook's input, for `--hook` forms (a hook answers with exit 0 whatever happens). */
  hookInput?: Record<string, unknown>;
}

/** Every command with a minimal valid argument list, ending with those that write or start a run. */
function commands(mem: string, project: string, transcript: string): Run[] {
  const dir = ['--dir', mem];
  const session = { cwd: project, session_id: 'agreement' };
  return [
    { name: 'where', args: ['where', ...dir] },
    { name: 'context', args: ['context', ...dir] },
    { name: 'list', args: ['list', ...dir] },
    { name: 'show', args: ['show', ...dir, 'user_role'] },
    { name: 'lint', args: ['lint', ...dir] },
    { name: 'refactor', args: ['refactor', ...dir, '--dry-run'] },
    { name: 'recall', args: ['recall', ...dir, '--engine', 'local', 'how do deploys of the billing service go'] },
    // Not a dry run: it moves the session's cursor to the transcript's end, so the Stop hook below starts no detached run.
    { name: 'extract', args: ['extract', ...dir, '--from', transcript, '--session-id', 'agreement', '--engine', 'local'] },
    { name: 'docs', args: ['docs', ...dir, '--from', transcript, '--session-id', 'agreement', '--engine', 'local'] },
    { name: 'dream', args: ['dream', ...dir, '--status'] },
    { name: 'hooks', args: ['hooks', 'status'] },
    { name: 'sync', args: ['sync', ...dir] },
    { name: 'export', args: ['export', ...dir, '--out', path.join(path.dirname(mem), 'agreement-export.tar')] },
    { name: 'import', args: ['import', ...dir, path.join(path.dirname(mem), 'agreement-export.tar')] },
    { name: 'save', args: ['save', ...dir, '--type', 'project', '--name', 'Deploy freeze', '--description', 'No deploys on Fridays', '--body', 'No deploys on Fridays.'] },
    { name: 'forget', args: ['forget', ...dir, 'user_role'] },
    { name: 'recall', args: ['recall', '--hook', ...dir], hookInput: { ...session, hook_event_name: 'UserPromptSubmit', prompt: 'how do deploys of the billing service go' } },
    { name: 'context', args: ['context', '--hook', ...dir], hookInput: { ...session, hook_event_name: 'SessionStart', source: 'startup' } },
    { name: 'dream', args: ['dream', '--hook', ...dir], hookInput: { ...session, hook_event_name: 'SessionEnd', reason: 'exit' } },
    { name: 'docs', args: ['docs', '--hook', ...dir], hookInput: { ...session, hook_event_name: 'Stop', transcript_path: transcript } },
    { name: 'extract', args: ['extract', '--hook', ...dir], hookInput: { ...session, hook_event_name: 'Stop', transcript_path: transcript } },
  ];
}

/** What a run said about the config file: the problem after `FILE: `, undefined when it did not name the file. */
function verdict(run: Run, result: CliResult, file: string): { problem: string | undefined; contractKept: boolean } {
  const prefix = run.hookInput ? `memdir ${run.name} hook skipped: ${file}: ` : `memdir: ${file}: `;
  const named = result.stderr.includes(file);
  if (!named) return { problem: undefined, contractKept: result.code === 0 };
  const lines = result.stderr.split('\n').filter(Boolean);
  const rejected = lines.length === 1 && lines[0]!.startsWith(prefix) && result.stdout === '' && result.code === (run.hookInput ? 0 : 2);
  return { problem: lines[0]!.startsWith(prefix) ? lines[0]!.slice(prefix.length) : result.stderr, contractKept: rejected };
}

describe('every command agrees about a config file', () => {
  test.each(CASES)(
    '%s',
    async (_what, content, problem) => {
      const { clones, env, root } = await teamSetup(['project']);
      const { repo: project, mem } = clones.project!;
      writeTree(mem, MEMORIES);
      writeTree(project, { 'memdir.config.json': content });
      const transcript = path.join(root, 'transcript.jsonl');
      fs.copyFileSync(TRANSCRIPT, transcript);
      const file = path.join(project, 'memdir.config.json');

      const outcomes: Array<{ command: string } & ReturnType<typeof verdict>> = [];
      for (const run of commands(mem, project, transcript)) {
        const input = run.hookInput ? JSON.stringify(run.hookInput) : undefined;
        const result = await runMemdir(run.args, { cwd: project, env: env(), input, timeoutMs: 60_000 });
        const said = verdict(run, result, file);
        expect(said.contractKept, `${run.args.join(' ')}: exit ${result.code}\n${result.stdout}\n${result.stderr}`).toBe(true);
        outcomes.push({ command: run.args.slice(0, 2).join(' '), ...said });
      }
      expect(fs.existsSync(path.join(mem, '.memdir/extract.log')), 'the Stop hook started a run').toBe(false);
      if (problem) {
        const [first] = outcomes;
        expect(first!.problem).toMatch(problem);
        expect(outcomes.filter((o) => o.problem !== first!.problem)).toEqual([]);
      } else {
        expect(outcomes.filter((o) => o.problem !== undefined)).toEqual([]);
      }
    },
    240_000,
  );
});

test('the hook fast paths validate against the rule catalog without carrying the lint rules', () => {
  const fast = path.join(repoRoot, 'dist/fast');
  for (const bundle of fs.readdirSync(fast).filter((name) => name.endsWith('.cjs'))) {
    const text = fs.readFileSync(path.join(fast, bundle), 'utf8');
    expect(text, bundle).not.toContain('src/lint/');
    // where reads no config; the guard's reads it in its judge (dist/guard-judge.cjs), loaded only for a write into memory.
    if (bundle !== 'where.cjs' && bundle !== 'guard.cjs') expect(text, bundle).toContain('src/config/rule-catalog.ts');
  }
});
