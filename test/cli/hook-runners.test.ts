import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, test } from 'vitest';
import { createRepo } from '../helpers/git-repo.js';
import { cleanEnv, memdirBin, repoRoot, runProcess } from '../helpers/run-cli.js';
import { tempDir, writeTree } from '../helpers/temp.js';

/** The ecosystem's own hook runners: the pre-commit framework and a GitHub Action, from the files this repository ships. */
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): any };
const shipped = (file: string) => yaml.load(fs.readFileSync(path.join(repoRoot, file), 'utf8'));
const memdirCommand = `${process.execPath} ${memdirBin}`;

const DEAD_POINTER = { '.claude/memory/MEMORY.md': '- [Old deploy](project_old_deploy.md) — how deploys used to work\n' };

const preCommitInstalled = (() => {
  try {
    execFileSync('pre-commit', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!preCommitInstalled)('the pre-commit framework (Debian package) runs the shipped hook', () => {
  test('a memory file with a dead pointer fails the commit; other files skip the hook', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    const home = tempDir();
    // The shipped definition as a local hook: offline, npm cannot install memdir into
    // pre-commit's node environment, so only `language` and `entry` point at the built memdir.
    const [hook] = shipped('.pre-commit-hooks.yaml');
    const config = { repos: [{ repo: 'local', hooks: [{ ...hook, language: 'system', entry: hook.entry.replace(/^memdir/, memdirCommand) }] }] };
    writeTree(repo, { '.pre-commit-config.yaml': JSON.stringify(config, null, 2) });
    const git = simpleGit(repo);
    await git.add('.pre-commit-config.yaml');
    const env = cleanEnv(home, { PRE_COMMIT_HOME: path.join(home, 'cache') });
    expect((await runProcess('pre-commit', ['install'], { cwd: repo, env })).code).toBe(0);

    writeTree(repo, { 'notes.md': '# notes\n' });
    await git.add('notes.md');
    const skipped = await runProcess('git', ['commit', '-m', 'notes'], { cwd: repo, env });
    expect(skipped.code, skipped.stdout + skipped.stderr).toBe(0);
    expect(skipped.stdout + skipped.stderr).toMatch(/memdir lint\.+\(no files to check\)Skipped/);

    writeTree(repo, DEAD_POINTER);
    await git.add('.claude');
    const refused = await runProcess('git', ['commit', '-m', 'memory'], { cwd: repo, env });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('points to project_old_deploy.md, which does not exist');
  });
});

describe('the GitHub Action, its steps run as a script', () => {
  const action = shipped('action.yml');

  /** `${{ … }}` of the action: inputs, step outputs, always(), == and && (all this action uses). */
  function evaluate(expression: string, inputs: Record<string, string>, outputs: Record<string, Record<string, string>>): unknown {
    const js = expression
      .replace(/always\(\)/g, 'true')
      .replace(/inputs\.([\w-]+)/g, (_, name: string) => JSON.stringify(inputs[name] ?? ''))
      .replace(/steps\.([\w-]+)\.outputs\.([\w-]+)/g, (_, step: string, name: string) => JSON.stringify(outputs[step]?.[name] ?? ''))
      .replace(/'([^']*)'/g, (_, s: string) => JSON.stringify(s))
      .replace(/==/g, '===');
    return new Function(`return (${js});`)();
  }
  const substitute = (text: string, inputs: Record<string, string>, outputs: Record<string, Record<string, string>>) =>
    text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, e: string) => String(evaluate(e, inputs, outputs)));

  async function runAction(repo: string, overrides: Record<string, string>) {
    const inputs = { ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]: [string, any]) => [k, String(v.default)])), ...overrides };
    const outputs: Record<string, Record<string, string>> = {};
    const ran: string[] = [];
    let code = 0;
    for (const step of action.runs.steps) {
      if (step.if && !evaluate(step.if, inputs, outputs)) continue;
      if (step.uses) {
        ran.push(step.uses.split('@')[0]);
        continue;
      }
      const outputFile = path.join(tempDir(), 'github-output');
      fs.writeFileSync(outputFile, '');
      const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), inputs, outputs)]));
      const result = await runProcess('bash', ['-e', '-c', step.run], { cwd: repo, env: cleanEnv(repo, { ...env, GITHUB_OUTPUT: outputFile }) });
      ran.push(step.id ?? 'run');
      if (step.id)
        outputs[step.id] = Object.fromEntries(
          fs
            .readFileSync(outputFile, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => l.split(/=(.*)/s).slice(0, 2)),
        );
      code = result.code;
      if (code !== 0) break;
    }
    return { code, ran, outputs };
  }

  test('pins Node and uploads SARIF to code scanning', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.inputs['node-version'].default).toMatch(/^\d+\.\d+\.\d+$/);
    expect(action.runs.steps.map((s: any) => s.uses).filter(Boolean)).toEqual(['actions/setup-node@v4', 'github/codeql-action/upload-sarif@v3']);
  });

  test('errors: the report is written and uploaded, then the job fails; a clean repository passes', async () => {
    const repo = await createRepo(path.join(tempDir(), 'app'));
    writeTree(repo, DEAD_POINTER);
    const failed = await runAction(repo, { command: memdirCommand });
    expect(failed).toMatchObject({ code: 1, ran: ['actions/setup-node', 'lint', 'github/codeql-action/upload-sarif', 'run'] });
    expect(failed.outputs.lint).toEqual({ 'exit-code': '1', 'sarif-file': 'memdir.sarif' });
    const sarif = JSON.parse(fs.readFileSync(path.join(repo, 'memdir.sarif'), 'utf8'));
    expect(sarif.runs[0].results.map((r: any) => r.ruleId)).toContain('MEM006');

    writeTree(repo, { '.claude/memory/MEMORY.md': '# Memory\n' });
    const clean = await runAction(repo, { command: memdirCommand, upload: 'false' });
    expect(clean).toMatchObject({ code: 0, ran: ['actions/setup-node', 'lint'] });
  });
});
