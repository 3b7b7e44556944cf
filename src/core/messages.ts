/**
 * Every sentence memdir prints to a user, in one place, so wording stays
 * consistent and is easy to review.
 */
export const messages = {
  settingNotString: (file: string) => `${file}: autoMemoryDirectory must be a string`,
  untrustedProjectSetting: (file: string, value: string) =>
    `memdir: ignoring autoMemoryDirectory "${value}" in ${file}: committed project settings are not trusted ` +
    '(Claude Code itself honours it in a trusted workspace); pass --trust-project-settings or set ' +
    'MEMDIR_TRUST_PROJECT_SETTINGS=1 to use it',
  badMemoryPath: (origin: string, value: string, reason: string) =>
    `${origin}: memory directory "${printable(value)}" ${reason}`,
  escapesDirectory: (dir: string) => `resolves outside the memory directory ${dir}; refusing to touch it`,
  binaryFile: () => 'binary file (contains NUL bytes), not a memory',
  notUtf8: () => 'not valid UTF-8 text',
  lockTimeout: (lockFile: string, pid: number | undefined) =>
    `${lockFile}: memory directory is locked${pid ? ` by process ${pid}` : ''}; gave up waiting`,
  notWritable: (target: string, reason: string) => `${target}: cannot write (${reason})`,
  sessionNotRecorded: (reason: string) => `memdir recall: ${reason}; answered without recording what this session was shown`,
  isDirectory: (target: string) => `${target}: is a directory where a memory file belongs; nothing was changed`,
  journalSetAside: (failedJournal: string, reason: string) =>
    `memdir: could not finish an interrupted write (${reason}); set it aside as ${failedJournal}, which names the files holding what was not written`,
  unreadable: (target: string, reason: string) => `${target}: cannot read (${reason})`,
  indexTooLongLine: (line: number, length: number) =>
    `line ${line} is a single line of ${length.toLocaleString('en-US')} characters; the index holds one short pointer per line`,
  badType: (value: string) => `--type "${value}" is not one of user, feedback, project, reference`,
  emptyField: (flag: string) => `${flag} must not be empty`,
  emptyBody: () => 'the memory has no body: pass --body or pipe it on stdin',
  memoryNotFound: (what: string, dir: string) => `no memory named "${what}" in ${dir}`,
  ambiguousMemory: (what: string, files: string[]) => `"${what}" matches several memories: ${files.join(', ')}; name the file`,
  internalError: (message: string) => `memdir: internal error: ${message} (run with --debug for the stack trace, and please report it)`,
} as const;

function printable(value: string): string {
  return value.replace(/\0/g, '\\0');
}
