import type { Finding } from '../core/doctor-findings.js';
import { requireWorkingDirectory } from '../store/cwd.js';
import { doctor as doctorReport } from './run.js';

export type { Finding as DoctorFinding, Severity as DoctorSeverity } from '../core/doctor-findings.js';

export interface DoctorOptions {
  /** The project's working directory (default: the process's). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The memory directory, as `--dir`. */
  dir?: string;
  allProjects?: boolean;
  /** Folders that hold projects, joined by the path delimiter: where a moved project is looked for. */
  searchRoot?: string;
  trustProjectSettings?: boolean;
}

export interface DoctorResult {
  dir: string;
  projectRoot: string;
  findings: Finding[];
  counts: Record<'error' | 'warning' | 'info', number>;
}

/** `memdir doctor` without hooks (a library caller installs none): where the memory is and why, split, shared and orphaned stores, what loads. Read-only. */
export function doctor(options: DoctorOptions = {}): DoctorResult {
  const report = doctorReport(
    { allProjects: options.allProjects ?? false, searchRoot: options.searchRoot, dir: options.dir, trustProjectSettings: options.trustProjectSettings ?? false, json: true, quiet: true, debug: false },
    options.env ?? process.env,
    options.cwd ?? requireWorkingDirectory(),
  );
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of report.findings) counts[finding.severity]++;
  return { dir: report.dir, projectRoot: report.projectRoot, findings: report.findings, counts };
}
