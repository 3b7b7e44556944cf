/**
 * The fast path of a plain `memdir sync` (loaded by bin/memdir.cjs without the CLI): when the
 * no-change record (src/sync/no-change.ts) still holds locally — every team file's stat, the git
 * configuration and memdir's own state as recorded — one `git ls-remote` asks whether the remote
 * branch moved. If not, it prints what the full sync would and exits 0. Any other answer hands
 * the command over to the full CLI in the same process, which does the real work.
 */
import { redactOutput } from '../core/secrets.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { configSources } from '../config/find.js';
import { localUnchanged, readNoChangeRecord, remoteCommit } from './no-change.js';
import { summaryLine, unchangedSummary } from './summary.js';

/** True when the run found nothing changed on either side and printed so. */
async function answeredWithoutCli(dirFlag: string | undefined, trustProjectSettings: boolean): Promise<boolean> {
  try {
    const cwd = process.cwd();
    const resolution = resolveMemoryDir({ dir: dirFlag, trustProjectSettings: trustProjectSettings || undefined });
    const { dir } = resolution;
    const record = readNoChangeRecord(dir);
    if (resolution.warnings.length > 0 || !record || record.memdir !== dir || record.cwd !== cwd || configSources({ dir, cwd }).length > 0) return false;
    // git asks the remote while the team files are stat'ed; the full sync (if it comes to that) starts after it.
    const remote = remoteCommit(dir, record.url, record.branch);
    const unchanged = localUnchanged(record, dir, cwd);
    if ((await remote) !== record.commit || !unchanged) return false;
    // The remote as configured may carry a credential (https://user:token@host).
    process.stdout.write(`${redactOutput(summaryLine(unchangedSummary(record.files), record.remote, { dryRun: false, retries: 0 }))}\n`);
    return true;
  } catch {
    return false; // the full sync says what went wrong, the way it always does
  }
}

/** The fast path of a plain `memdir sync` (src/fast/sync.ts): true when it took the command (`fullCli` runs the CLI when it hands over). */
export function takeFastPath(args: { dir?: string | undefined; trustProjectSettings: boolean }, fullCli?: () => void): boolean {
  if (!fullCli) return false;
  void answeredWithoutCli(args.dir, args.trustProjectSettings).then((answered) => {
    if (!answered) fullCli();
  });
  return true;
}
