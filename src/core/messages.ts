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
  binaryFile: () => 'binary file (contains NUL bytes; or UTF-16 without a byte-order mark), not UTF-8 text; memdir leaves it alone',
  notUtf8: (at?: { byte: number; line: number }) =>
    `not valid UTF-8 text${at ? ` (byte 0x${at.byte.toString(16).toUpperCase().padStart(2, '0')} on line ${at.line})` : ''}; memdir leaves it alone`,
  notUtf16: (encoding: string) => `not valid ${encoding} text despite its byte-order mark; memdir leaves it alone`,
  topicTooLarge: (bytes: number, limit: number) =>
    `${bytes.toLocaleString('en-US')} bytes, over the ${limit / (1024 * 1024)} MB limit for a topic file; memdir leaves it alone (split it by hand)`,
  readOnlyEncoding: (encoding: string) => `${encoding} text; memdir reads it but does not rewrite it (save it as UTF-8 to let memdir edit it)`,
  escapingFile: () => 'a symlink to outside the memory directory; memdir leaves it alone',
  lockTimeout: (lockFile: string, pid: number | undefined) =>
    `${lockFile}: memory directory is locked${pid ? ` by process ${pid}` : ''}; gave up waiting`,
  notWritable: (target: string, reason: string) => `${target}: cannot write (${reason})`,
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
