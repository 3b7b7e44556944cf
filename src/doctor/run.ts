import fs from 'node:fs';
import path from 'node:path';
import { doctorText as text, type Finding, type Severity } from '../core/doctor-findings.js';
import { RefusedError, UsageError } from '../core/errors.js';
import { sanitizeProjectPath } from '../core/paths.js';
import { printable } from '../core/messages.js';
import type { GlobalArgs } from '../shell/options.js';
import type { Output } from '../shell/output.js';
import { absolutePath, requireWorkingDirectory } from '../store/cwd.js';
import { writeFileAtomic } from '../store/atomic.js';
import { withDirLock } from '../store/lock.js';
import { configHome, homeDir } from '../store/settings.js';
import { hookFindings, type HookRow } from './hooks.js';
import { mergeSplitStore, undoLastMerge, type MergeResult } from './fix.js';
import { loadFindings } from './loads.js';
import { readProjectFolders, type ProjectFolder } from './projects.js';
import { storeFindings } from './stores.js';
import { claudeVersion, whereAndWhy } from './where.js';

export type { HookRow } from './hooks.js';

export interface DoctorOptions extends GlobalArgs {
  allProjects: boolean;
  fix?: boolean | undefined;
  undo?: boolean | undefined;
  moveOrphan?: string | undefined;
  /** The project --move-orphan or --undo works for (default: the working directory's). */
  to?: string | undefined;
  searchRoot?: string | undefined;
  /** The hooks of the project in the working directory; none checked when absent. */
  hookRows?: (() => HookRow[]) | undefined;
}

export interface DoctorReport {
  dir: string;
  projectRoot: string;
  findings: Finding[];
  /** Split stores `--fix` merges into `dir`. */
  mergeable: string[];
  folders: ProjectFolder[];
}

/** Everything doctor finds, in the order it reports it: where, stores, what loads, hooks. */
export function doctor(options: DoctorOptions, env: NodeJS.ProcessEnv = process.env, cwd: string = requireWorkingDirectory()): DoctorReport {
  const where = whereAndWhy({ cwd, env, dir: options.dir, trustProjectSettings: options.trustProjectSettings || env.MEMDIR_TRUST_PROJECT_SETTINGS === '1' });
  const claude = claudeVersion(env);
  const findings = [...where.findings, claude];
  const projectsDir = path.join(configHome(env, homeDir(env)), 'projects');
  const searchRoots = (options.searchRoot ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((root) => absolutePath(root));
  const folders = readProjectFolders(projectsDir);
  const stores = storeFindings({ folders, projectsDir, dir: where.dir, projectRoot: where.projectRoot, allProjects: options.allProjects, searchRoots });
  findings.push(...stores.findings);
  // The installed release's load model: 2.1.197 counts a BOM and CRs that later releases drop.
  findings.push(...loadFindings(where.dir, claude.evidence.version === '2.1.197' ? '2.1.197' : 'latest'));
  if (options.hookRows) findings.push(...hookFindings(options.hookRows, cwd, where.dir, env));
  return { dir: where.dir, projectRoot: where.projectRoot, findings, mergeable: stores.mergeable, folders };
}

/**
 * Empty the body of a `.consolidate-lock` whose process is gone, keeping its mtime (the last
 * consolidation time, which the dream gate reads). Checked again just before: a dream that took the
 * lock since keeps it.
 */
function clearConsolidateLock(file: string, pid: number): boolean {
  const stat = fs.statSync(file);
  if (fs.readFileSync(file, 'utf8').trim() !== String(pid)) return false;
  writeFileAtomic(file, '');
  fs.utimesSync(file, stat.atimeMs / 1000, stat.mtimeMs / 1000);
  return true;
}

/** The folder `--move-orphan` names (its path, its name, or the project path it was named after); it must be an orphan. */
function orphanFolder(report: DoctorReport, named: string): ProjectFolder {
  const asPath = absolutePath(named);
  const folder = report.folders.find((f) => f.path === asPath || f.name === named || f.name === sanitizeProjectPath(asPath));
  if (!folder || !fs.existsSync(folder.memoryDir)) throw new UsageError(text.noSuchOrphan(named));
  const alive = [...folder.cwds.keys()].find((cwd) => fs.existsSync(cwd));
  if (alive !== undefined || folder.cwds.size === 0) throw new RefusedError(text.notAnOrphan(folder.path, alive));
  if (folder.memoryDir === report.dir) throw new RefusedError(text.notAnOrphan(folder.path, report.projectRoot));
  return folder;
}

const LABEL: Record<Severity, string> = { error: 'error  ', warning: 'warning', info: 'info   ' };

/** `memdir doctor`: exit 1 when an error-level finding remains. */
/** The project folder `--to` names, checked; the working directory without it. */
function targetProject(options: DoctorOptions): string {
  if (options.to === undefined) return requireWorkingDirectory();
  if (options.moveOrphan === undefined && !options.undo) throw new UsageError(text.toWithoutMove());
  const to = absolutePath(options.to);
  if (!fs.statSync(to, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(text.toNotAFolder(options.to));
  return to;
}

export async function runDoctor(options: DoctorOptions, output: Output): Promise<number> {
  if (options.undo && (options.fix || options.moveOrphan !== undefined)) throw new UsageError(text.fixAndUndo());
  const project = targetProject(options);
  if (options.undo) {
    const env = process.env;
    const { dir } = whereAndWhy({ cwd: project, env, dir: options.dir, trustProjectSettings: options.trustProjectSettings || env.MEMDIR_TRUST_PROJECT_SETTINGS === '1' });
    const undone = await undoLastMerge(dir);
    if (options.json) output.json({ undone });
    else output.out(printable(text.undone(undone.from, undone.into, undone.restored)));
    return 0;
  }
  const changing = options.fix || options.moveOrphan !== undefined;
  // The hooks are run once, on the directory as the repairs leave it.
  let report = doctor(changing ? { ...options, hookRows: undefined } : options, process.env, project);
  const merged: MergeResult[] = [];
  const swept: string[] = [];
  if (options.moveOrphan !== undefined) merged.push(await mergeSplitStore(orphanFolder(report, options.moveOrphan).memoryDir, report.dir));
  if (options.fix) {
    for (const from of report.mergeable) merged.push(await mergeSplitStore(from, report.dir));
    // Taking the directory lock takes a dead process's lock over and completes an interrupted transaction.
    const sweepable = report.findings.filter((f) => f.id === 'stale-lock' || f.id === 'interrupted-journal');
    if (sweepable.length > 0) {
      await withDirLock(report.dir, () => undefined);
      swept.push(...sweepable.map((f) => String(f.evidence.file)));
    }
    const consolidate = report.findings.find((f) => f.id === 'stale-consolidate-lock');
    if (consolidate && clearConsolidateLock(String(consolidate.evidence.file), Number(consolidate.evidence.pid))) swept.push(String(consolidate.evidence.file));
  }
  if (changing) report = doctor(options, process.env, project);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of report.findings) counts[finding.severity]++;
  const { mergeable: _, folders: __, ...shown } = report;
  if (options.json) output.json({ ...shown, counts, ...(changing ? { merged, swept } : {}) });
  else {
    // Paths and working directories come from transcripts and folder names: shown with control characters escaped.
    const line = (value: string) => output.out(printable(value));
    for (const merge of merged) {
      line(text.merged(merge.from, merge.into, merge.moved.length, merge.dropped.length, merge.renamed.length));
      for (const renamed of merge.renamed) line(`  ${text.renamedFile(renamed.from, renamed.to)}`);
      for (const left of merge.left) line(`  ${text.leftFile(left)}`);
    }
    for (const file of swept) line(text.swept(file));
    const paint = { error: output.colors.red, warning: output.colors.yellow, info: output.colors.dim };
    for (const finding of report.findings) {
      output.out(`${paint[finding.severity](LABEL[finding.severity])} ${printable(finding.message)}`);
      if (finding.fix) line(`        fix: ${finding.fix}`);
    }
    output.out(text.summary(counts.error, counts.warning));
  }
  return counts.error > 0 ? 1 : 0;
}
