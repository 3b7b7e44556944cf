/**
 * `memdir doctor`'s findings: each one a severity, one line, the evidence and the command that
 * fixes it. The sentences live here, beside the ids docs/commands/doctor.md documents.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  id: string;
  severity: Severity;
  message: string;
  evidence: Record<string, unknown>;
  /** The command (or edit) that repairs it; null when nothing needs doing. */
  fix: string | null;
}

const quoted = (value: string) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

export const doctorText = {
  directory: (dir: string, how: string) => `memory directory ${dir} (${how})`,
  directoryMissing: (dir: string) => `memory directory ${dir} does not exist yet: no session has saved a memory here`,
  settingsUnreadable: (file: string, problem: string) => `${file} cannot be read as settings: ${problem}`,
  fixSettingsFile: (file: string) => `fix or remove ${file}`,
  relativeSetting: (file: string, value: string) => `autoMemoryDirectory "${value}" in ${file} is not an absolute path: Claude Code ignores it`,
  invalidSetting: (file: string, value: string, reason: string) => `autoMemoryDirectory "${value}" in ${file} ${reason}: Claude Code ignores it`,
  fixRelativeSetting: (file: string) => `write an absolute path (or ~/…) as autoMemoryDirectory in ${file}`,
  committedSetting: (file: string, value: string) => `autoMemoryDirectory "${value}" in the committed ${file}: Claude Code honours it in a trusted workspace, memdir ignores it`,
  fixCommittedSetting: () => 'move autoMemoryDirectory to .claude/settings.local.json, or run memdir with --trust-project-settings',
  misspelledSetting: (file: string, key: string) => `"${key}" in ${file} is not a Claude Code setting: did you mean "autoMemoryDirectory"?`,
  fixMisspelledSetting: (file: string, key: string) => `rename "${key}" to "autoMemoryDirectory" in ${file}`,
  settingNotString: (file: string) => `autoMemoryDirectory in ${file} is not a string: Claude Code ignores it`,
  claudeVersion: (version: string, file: string, checked: 'checked' | 'older' | 'newer', releases: readonly string[]) =>
    `Claude Code ${version} (${file}): ${
      checked === 'checked'
        ? 'memdir finds and loads the memory directory as this release does (checked end to end)'
        : checked === 'older'
          ? `older than the releases memdir is checked against (${releases.join(', ')}); where it keeps memory may differ — update Claude Code`
          : `newer than the releases memdir is checked against (${releases.join(', ')}); memdir follows ${releases.at(-1)}'s rules`
    }`,
  claudeMissing: () => 'Claude Code (claude) is not on PATH',
  claudeNoVersion: (file: string, problem: string) => `${file} --version did not answer: ${problem}`,
  splitStore: (folder: string, count: number, why: string) => `${folder} holds ${count} ${count === 1 ? 'memory' : 'memories'} of this project that Claude Code does not load (${why})`,
  fixSplitStore: () => 'memdir doctor --fix (merges it; memdir doctor --undo reverses)',
  fixSplitStoreByHand: (from: string, to: string) => `diff -r ${quoted(from)} ${quoted(to)}; move this project's memories into ${quoted(to)}, then memdir lint --fix`,
  collision: (folder: string, projects: number) => `${folder} is shared by ${projects} different projects: each loads the other's memories`,
  fixCollision: (projects: readonly string[]) =>
    `give each project its own autoMemoryDirectory in its .claude/settings.local.json (${projects.map(quoted).join(', ')}), then move each project's memories there`,
  orphan: (folder: string, cwd: string, count: number) => `${folder}: its project ${cwd} no longer exists (${count} ${count === 1 ? 'memory' : 'memories'} left behind)`,
  orphanFound: (folder: string, cwd: string, now: string, count: number) =>
    `${folder}: its project ${cwd} no longer exists; it now looks to be ${now} (${count} ${count === 1 ? 'memory' : 'memories'} left behind)`,
  fixOrphanMove: (folder: string, project: string, here: boolean) => `${here ? '' : `cd ${quoted(project)} && `}memdir doctor --move-orphan ${quoted(folder)}`,
  fixOrphanSearch: () => 'memdir doctor --all-projects --search-root DIR (the folder that holds your projects now)',
  indexMissing: (dir: string, topics: number) => `${dir} has ${topics} topic ${topics === 1 ? 'file' : 'files'} but no MEMORY.md: Claude Code loads nothing`,
  fixIndexMissing: () => 'memdir lint --fix',
  indexEncoding: (file: string, encoding: string) => `${file} is ${encoding} text: Claude Code reads it as UTF-8, so the agent gets unreadable text`,
  fixIndexEncoding: (file: string) => `iconv -f UTF-16 -t UTF-8 ${quoted(file)} > ${quoted(`${file}.utf8`)} && mv ${quoted(`${file}.utf8`)} ${quoted(file)}`,
  indexLoaded: (lines: number, chars: number) => `MEMORY.md: Claude Code loads ${lines} ${lines === 1 ? 'line' : 'lines'}, ${chars} characters`,
  indexCut: (line: number, lines: number, by: string) => `MEMORY.md is cut at line ${line} (the ${by} limit): ${lines} ${lines === 1 ? 'line is' : 'lines are'} not loaded`,
  fixIndexCut: () => 'memdir refactor',
  unreachable: (count: number) => `${count} topic ${count === 1 ? 'file' : 'files'} no loaded pointer reaches: the agent never learns ${count === 1 ? 'it exists' : 'they exist'}`,
  fixUnreachable: () => 'memdir lint --fix (adds missing pointers); memdir refactor when the index is full',
  teamIndex: (lines: number, chars: number) => `team/MEMORY.md: ${lines} ${lines === 1 ? 'line' : 'lines'}, ${chars} characters loaded after the private index`,
  teamIndexCut: (line: number) => `team/MEMORY.md is cut at line ${line}`,
  teamNoIndex: (topics: number) => `team/ has ${topics} topic ${topics === 1 ? 'file' : 'files'} but no MEMORY.md`,
  fixTeam: () => 'memdir sync',
  staleLock: (file: string, pid: number) => `${file} is held by process ${pid}, which is gone`,
  fixStaleLock: () => "memdir doctor --fix (or any write: it takes a dead process's lock over)",
  staleConsolidateLock: (file: string, pid: number) => `${file} names process ${pid}, which is gone: a dream run was interrupted`,
  fixStaleConsolidateLock: () => 'memdir doctor --fix (keeps the last consolidation time)',
  interruptedJournal: (file: string) => `${file}: a transaction was interrupted; the next write completes it`,
  fixInterruptedJournal: () => 'memdir doctor --fix (or any write: it completes the transaction)',
  failedJournal: (file: string) => `${file}: a transaction could not be completed and was set aside`,
  fixFailedJournal: (file: string) => `read ${file}: it lists each rename (temp → file) left to do; do them by hand, then delete it`,
  fixAndUndo: () => '--undo goes alone: not with --fix or --move-orphan',
  toWithoutMove: () => '--to names where --move-orphan or --undo goes; give one of them',
  toNotAFolder: (to: string) => `--to ${to}: not a folder; name the project the memory goes to`,
  noSuchOrphan: (named: string) => `--move-orphan ${named}: no folder with memory of that name or project under the projects folder`,
  notAnOrphan: (folder: string, alive: string | undefined) => `${folder} is not an orphan${alive ? `: ${alive} still exists` : ': no session recorded where it was'}; nothing moved`,
  swept: (file: string) => `swept ${file}`,
  undoChanged: (file: string) => `${file} changed since doctor --fix wrote it: nothing undone`,
  nothingToUndo: (dir: string) => `no doctor --fix to undo in ${dir}`,
  merged: (from: string, into: string, moved: number, dropped: number, renamed: number) =>
    `merged ${from} into ${into}: ${moved} moved, ${dropped} identical dropped, ${renamed} kept under another name`,
  renamedFile: (from: string, to: string) => `${from} differs from the file of that name: kept as ${to}`,
  leftFile: (file: string) => `${file} is a link or not UTF-8 text: left where it is`,
  undone: (from: string, into: string, files: number) => `undone: ${files} files of ${into} and ${from} restored`,
  hooksUnreadable: (problem: string) => `hooks cannot be checked: ${problem}`,
  fixHooksUnreadable: () => 'fix the settings file named, then memdir hooks status',
  summary: (errors: number, warnings: number) => `${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`,
  hooksNone: () => 'no memdir hooks installed',
  fixHooksNone: () => 'memdir hooks install',
  hookNotRun: (hook: string, command: string, why: string) => `${hook}: ${command} would run (not run: ${why})`,
  hookRan: (hook: string, command: string, exitCode: number, runner: string, ms: number) => `${hook}: ${command} ran as ${runner} runs it (exit ${exitCode}, ${ms} ms)`,
  hookFailed: (hook: string, command: string, problem: string, runner: string) => `${hook}: ${command} failed when run as ${runner} runs it: ${problem}`,
  hookTooSlow: (ms: number) => `too slow: not done after ${ms / 1000} s`,
  hookTooMuchOutput: (bytes: number) => `printed more than ${bytes / 1024 / 1024} MB`,
  fixHookFailed: (result: string) =>
    result === 'not-found'
      ? 'memdir hooks install (writes a command that is found)'
      : result === 'too-slow'
        ? 'memdir doctor --debug for where the time goes; a hook Claude Code stops does nothing'
        : 'memdir hooks install (or fix the command, or the configuration the line names)',
  hookWrote: (dir: string, files: number) => `a hook wrote into ${dir} while doctor ran it (${files} ${files === 1 ? 'file' : 'files'}): it does not know doctor's probe`,
  fixHookWrote: () => 'memdir hooks install (the hooks then run this memdir)',
  hookBroken: (hook: string, command: string, detail: string) => `${hook}: ${command} would not run (${detail})`,
  fixHookBroken: () => 'memdir hooks install (or fix the command in the settings file)',
} as const;
