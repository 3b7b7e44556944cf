import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { memdirOnPath } from '../helpers/claude.js';
import { cleanEnv, runMemdir, runProcess } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

test('memdir completion prints the bash script, or the zsh one when asked or when $SHELL is zsh', async () => {
  const cwd = tempDir();
  const bash = await runMemdir(['completion', 'bash'], { cwd, env: cleanEnv(cwd) });
  expect(bash.code, bash.stderr).toBe(0);
  expect(bash.stdout).toContain('complete -o bashdefault -o default -F _memdir_completions memdir\n');
  const zsh = await runMemdir(['completion'], { cwd, env: cleanEnv(cwd, { SHELL: '/usr/bin/zsh' }) });
  expect(zsh.code, zsh.stderr).toBe(0);
  expect(zsh.stdout).toContain('compdef _memdir memdir\n');
  expect((await runMemdir(['completion', 'fish'], { cwd, env: cleanEnv(cwd) })).code).toBe(2);
});

test('in bash, Tab after `memdir re` offers recall and refactor; after `memdir hooks st`, status; after `memdir lint --format `, its choices', async () => {
  const cwd = tempDir();
  const env = cleanEnv(cwd, { PATH: `${memdirOnPath()}:${process.env.PATH}` });
  /** What bash offers for the words typed so far (the last one is being completed). */
  const complete = async (...words: string[]) => {
    const script = `source <(memdir completion bash)\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})\nCOMP_CWORD=${words.length - 1}\n_memdir_completions\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
    const result = await runProcess('bash', ['-c', script], { cwd, env });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout.split('\n').filter(Boolean).sort();
  };
  expect(await complete('memdir', 're')).toEqual(['recall', 'refactor']);
  expect(await complete('memdir', 'hooks', 'st')).toEqual(['status']);
  expect(await complete('memdir', 'do')).toEqual(['docs', 'doctor']);
  expect(await complete('memdir', 'doctor', '--all')).toEqual(['--all-projects']);
  expect(await complete('memdir', 'lint', '--format', '')).toEqual(['json', 'sarif', 'stylish']);
});

const hasZsh = spawnSync('zsh', ['-fc', 'true']).status === 0;

test.skipIf(!hasZsh)('in zsh, the script hands _describe each command with its description (skipped without zsh)', async () => {
  const cwd = tempDir();
  const env = cleanEnv(cwd, { PATH: `${memdirOnPath()}:${process.env.PATH}` });
  // Outside a real completion, compdef is a no-op and _describe prints what it was given.
  const script = `compdef() { :; }\n_describe() { print -l -- "\${(@P)2}"; }\nsource <(memdir completion zsh)\nwords=(memdir hooks st)\nCURRENT=3\n_memdir`;
  const result = await runProcess('zsh', ['-fc', script], { cwd, env });
  expect(result.code, result.stderr).toBe(0);
  expect(
    result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(':')[0]),
  ).toEqual(['install', 'uninstall', 'status']);
  expect(result.stdout).toContain('status:list each hook');
});
