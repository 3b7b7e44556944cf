/** What a sync did with one file. */
export type FileStatus = 'pulled' | 'pushed' | 'removed' | 'unchanged' | 'skipped' | 'refused';

/** The last line of a sync report: counts per status, the remote, and the retries it took. */
export function summaryLine(summary: Record<FileStatus, number>, remote: string, options: { dryRun: boolean; retries: number }): string {
  const counts = Object.entries(summary).map(([status, count]) => `${count} ${status}`);
  const retried = options.retries > 0 ? `, ${options.retries} retr${options.retries === 1 ? 'y' : 'ies'}` : '';
  return `${options.dryRun ? 'dry run, nothing written: ' : ''}${counts.join(', ')} (${remote}${retried})`;
}

/** The summary of a run that found every file unchanged. */
export function unchangedSummary(files: number): Record<FileStatus, number> {
  return { pulled: 0, pushed: 0, removed: 0, unchanged: files, skipped: 0, refused: 0 };
}
