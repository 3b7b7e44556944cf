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
  expect(await complete('memdir', 'lint', '--format', '')).toEqual(['json', 'sarif', 'stylish']);
});
