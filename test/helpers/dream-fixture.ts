import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { sanitizeProjectPath } from '../../src/core/paths.js';
import { createRepo } from './git-repo.js';
import { writeTree } from './temp.js';

const topic = (name: string, description: string, type: string, body: string, modified?: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n${modified ? `modified: ${modified}\n` : ''}---\n\n${body}\n`;

/** Memories with nothing wrong: a dream must leave these bytes alone. */
export const CLEAN: Record<string, string> = {
  'user_role.md': topic('Role', 'User is a staff engineer on the payments team', 'user', 'The user is a staff engineer who owns the payments service.'),
  'feedback_terse.md': topic(
    'Terse replies',
    'User does not want a summary at the end of each response',
    'feedback',
    'Do not end responses with a recap.\n\n**Why:** they read the diff.\n**How to apply:** all responses.',
  ),
  'feedback_tests.md': topic(
    'Real databases in tests',
    'Integration tests hit a real Postgres, never mocks',
    'feedback',
    'Integration tests must use a real database.\n\n**Why:** mocks hid a broken migration.\n**How to apply:** any test touching storage.',
  ),
  'reference_linear.md': topic('Linear project', 'Pipeline bugs are tracked in the Linear project INGEST', 'reference', 'Bugs in the ingest pipeline go to Linear project INGEST.'),
  'user_languages.md': topic('Languages', 'User writes Go daily and is new to the React frontend', 'user', 'Deep Go experience; first time touching the React side of the repo.'),
  'feedback_commits.md': topic(
    'Small commits',
    'User wants small commits with imperative subject lines',
    'feedback',
    'Keep commits small, subject in the imperative.\n\n**Why:** review load.\n**How to apply:** every commit.',
  ),
  'reference_oncall.md': topic('On-call rota', 'The on-call rota lives in PagerDuty schedule PAY-PRIMARY', 'reference', 'Check PagerDuty schedule PAY-PRIMARY for who is on call.'),
};

/** Planted problems: a contradiction (dated), a near-duplicate, a relative date, a drifted path, a dead pointer. */
export const PLANTED: Record<string, string> = {
  'project_freeze_old.md': topic(
    'Release freeze',
    'When the mobile release freeze starts',
    'project',
    'The mobile release freeze starts on 2026-03-05 for all teams.\n\n**Why:** release branch cut.\n**How to apply:** no merges to main after it.',
    '2026-01-10',
  ),
  'project_freeze_new.md': topic(
    'Release freeze moved',
    'The mobile release freeze was moved by a week',
    'project',
    'The mobile release freeze starts on 2026-03-12 for all teams.\n\n**Why:** release branch cut.\n**How to apply:** no merges to main after it.',
    '2026-02-20',
  ),
  'project_beta.md': topic(
    'Beta date',
    'When the beta ships to testers',
    'project',
    'The beta ships next Friday to all external testers.\n\n**Why:** marketing launch.\n**How to apply:** freeze features before it.',
    '2026-02-26',
  ),
  'reference_grafana.md': topic(
    'Grafana latency dashboard',
    'Grafana board grafana.internal/d/api-latency is what on-call watches for API latency',
    'reference',
    'The API latency dashboard is grafana.internal/d/api-latency; on-call watches it.',
  ),
  'reference_grafana_board.md': topic(
    'Grafana API latency board',
    'Grafana board grafana.internal/d/api-latency that on-call watches for API latency',
    'reference',
    'The API latency dashboard is grafana.internal/d/api-latency; on-call watches it when paged.',
  ),
  'project_parser.md': topic(
    'Parser rewrite',
    'The config parser rewrite and why it happened',
    'project',
    'The config parser was rewritten to stream input.\nThe old entry point is `src/old_parser.ts`, kept for the CLI flags.\n\n**Why:** large configs ran out of memory.\n**How to apply:** new config features go in the streaming parser.',
  ),
};

export const INDEX = [
  '# Memory',
  '',
  ...Object.entries({ ...CLEAN, ...PLANTED }).map(([file, text]) => `- [${/name: (.*)/.exec(text)![1]}](${file}) — ${/description: (.*)/.exec(text)![1]}`),
  '- [Staging database](project_staging_db.md) — the staging database moved',
  '',
].join('\n');

/**
 * A memory directory with the planted problems, and a project repository whose history deleted
 * src/old_parser.ts. The directory is where the project's memory resolves to with HOME=root/home,
 * so it belongs to that repository (its drift is checked there), --dir or not.
 */
export async function plantedWorkspace(root: string): Promise<{ dir: string; repo: string }> {
  const repo = await createRepo(path.join(root, 'repo'));
  writeTree(repo, { 'src/old_parser.ts': 'export {};\n', 'src/parser.ts': 'export {};\n' });
  const git = simpleGit(repo);
  await git.add('.');
  await git.commit('parsers');
  await git.rm('src/old_parser.ts');
  await git.commit('drop the old parser');
  const dir = path.join(root, 'home', '.claude', 'projects', sanitizeProjectPath(repo), 'memory');
  writeTree(dir, { ...CLEAN, ...PLANTED, 'MEMORY.md': INDEX });
  // Files' own times are in the past: relative dates anchor at `modified`, and mtimes do not matter.
  const past = new Date('2026-02-26T12:00:00Z');
  for (const file of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, file), past, past);
  return { dir, repo };
}
