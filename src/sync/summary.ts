/** What a sync did with one file. */
export type FileStatus = 'pulled' | 'pushed' | 'removed' | 'unchanged' | 'skipped' | 'refused' | 'conflict';

/** The last line of a sync report: counts per status, the remote, and the retries it took. */
export function summaryLine(summary: Record<FileStatus, number>, remote: string, options: { dryRun: boolean; retries: number }): string {
  // Conflicts are counted only when there are some: the line of an ordinary run stays as it was.
  const counts = Object.entries(summary)
    .filter(([status, count]) => status !== 'conflict' || count > 0)
    .map(([status, count]) => `${count} ${status}${status === 'conflict' && count > 1 ? 's' : ''}`);
  const retried = options.retries > 0 ? `, ${options.retries} retr${options.retries === 1 ? 'y' : 'ies'}` : '';
  return `${options.dryRun ? 'dry run, nothing written: ' : ''}${counts.join(', ')} (${remote}${retried})`;
}

/** The summary of a run that found every file unchanged. */
export function unchangedSummary(files: number): Record<FileStatus, number> {
  return { pulled: 0, pushed: 0, removed: 0, unchanged: files, skipped: 0, refused: 0, conflict: 0 };
}
