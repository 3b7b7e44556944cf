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
  untrustedConfigKeys: (origin: string, keys: readonly string[]) =>
    `memdir: ignoring ${keys.join(', ')} in ${origin}: a project's config may tune rules and thresholds but not choose ` +
    'what runs or where data goes; set them in your own ~/.config/memdir/config.json, by flag or environment, or pass ' +
    '--trust-project-settings or set MEMDIR_TRUST_PROJECT_SETTINGS=1 to use them',
  badMemoryPath: (origin: string, value: string, reason: string) => `${origin}: memory directory "${printable(value)}" ${reason}`,
  escapesDirectory: (dir: string) => `resolves outside the memory directory ${dir}; refusing to touch it`,
  binaryFile: () => 'binary file (contains NUL bytes; or UTF-16 without a byte-order mark), not UTF-8 text; memdir leaves it alone',
  notUtf8: (at?: { byte: number; line: number }) => `not valid UTF-8 text${at ? ` (byte 0x${at.byte.toString(16).toUpperCase().padStart(2, '0')} on line ${at.line})` : ''}; memdir leaves it alone`,
  notUtf16: (encoding: string) => `not valid ${encoding} text despite its byte-order mark; memdir leaves it alone`,
  topicTooLarge: (bytes: number, limit: number) => `${bytes.toLocaleString('en-US')} bytes, over the ${limit / (1024 * 1024)} MB limit for a topic file; memdir leaves it alone (split it by hand)`,
  readOnlyEncoding: (encoding: string) => `${encoding} text; memdir reads it but does not rewrite it (save it as UTF-8 to let memdir edit it)`,
  escapingFile: () => 'a symlink to outside the memory directory; memdir leaves it alone',
  lockTimeout: (lockFile: string, pid: number | undefined) => `${lockFile}: memory directory is locked${pid ? ` by process ${pid}` : ''}; gave up waiting`,
  notWritable: (target: string, reason: string) => `${target}: cannot write (${reason})`,
  stateLink: (link: string) => `${link}: a symbolic link where memdir keeps its own state; not followed, nothing written through it (remove it)`,
  outsideState: (file: string) => `${file}: not inside memdir's own state folder (.memdir/); refusing to touch it`,
  readOnlyFile: (mode: number) => `read-only (mode ${mode.toString(8).padStart(4, '0')}); left as it is (make it writable to let memdir change it)`,
  sessionNotRecorded: (reason: string) => `memdir recall: ${reason}; answered without recording what this session was shown`,
  isDirectory: (target: string) => `${target}: is a directory where a memory file belongs; nothing was changed`,
  journalSetAside: (failedJournal: string, reason: string) =>
    `memdir: could not finish an interrupted write (${reason}); set it aside as ${failedJournal}, which names the files holding what was not written`,
  unreadable: (target: string, reason: string) => `${target}: cannot read (${reason})`,
  indexTooLongLine: (line: number, length: number) => `line ${line} is a single line of ${length.toLocaleString('en-US')} characters; the index holds one short pointer per line`,
  badType: (field: string, value: string) => `${field} "${value}" is not one of user, feedback, project, reference`,
  emptyField: (flag: string) => `${flag} must not be empty`,
  emptyBody: () => 'the memory has no body: pass --body or pipe it on stdin',
  /** A memory file a read-only command (list, recall) leaves out, and why: never left out silently. */
  leftOut: (command: string, file: string, problem: string) => `memdir ${command}: ${file} left out: ${problem}`,
  recallSkipped: (file: string, reason: 'claude-code' | 'already-surfaced') =>
    `memdir recall: ${file} skipped: ${reason === 'claude-code' ? "Claude Code's own recall surfaced it in this session (transcript)" : 'memdir surfaced it earlier in this session'}`,
  indexUnreadable: (file: string, problem: string) => `memdir list: ${file}: ${problem}; which memories it points to is not known`,
  semanticFailed: (reason: string) => `memdir recall: the sentence model failed (${printable(reason).slice(0, 200)}); ranked on words alone`,
  memoryNotFound: (what: string, dir: string) => `no memory named "${what}" in ${dir}`,
  forgetTeamMemory: (what: string, file: string) => `"${what}" is a team memory (${file}), shared with everyone through sync; a private forget leaves it`,
  forgetTeamHint: (what: string) => `to remove it for the whole team: memdir forget --team "${what}"`,
  teamNamesake: (name: string, file: string) =>
    `memdir: a team memory named "${name}" exists (${file}) and is left as it is; this is a private memory beside it (\`memdir save --team\` updates the team one)`,
  teamFileInPrivateEdit: (file: string) => `${file} is team memory: a private write leaves it (write it with --team)`,
  extractTeamTranscriptOnly: () => '--team extracts a transcript into team memory: give --from FILE, not --hook, --review, --accept or --discard',
  teamMemoryElsewhere: () => 'team memory, a directory of its own (run on team/ to change it)',
  teamMemoryShown: (file: string) => `team memory (${file}): shared with everyone in this project through memdir sync`,
  ambiguousMemory: (what: string, files: string[]) => `"${what}" matches several memories: ${files.join(', ')}; name the file`,
  internalError: (message: string) => `memdir: internal error: ${message} (run with --debug for the stack trace, and please report it)`,
  workingDirectoryGone: () => 'the working directory no longer exists; cd to an existing directory, or pass an absolute --dir',
  notOneLine: (flag: string, character: string) => `${flag} must be one line of text: it contains ${printable(character)}; join the lines or drop the character`,
  needsValue: (flag: string, next: string | undefined) =>
    next === undefined ? `${flag} needs a value` : `${flag} needs a value: "${printable(next)}" reads as an option; write a value that starts with "-" as ${flag}=${printable(next)}`,
  givenTwice: (flag: string) => `${flag} is given more than once; give it once`,
  notWholeNumber: (flag: string, min: number) => `${flag} must be a whole number${min === 1 ? ' of at least 1' : ` from ${min}`}`,
  notADate: (flag: string, value: string) => `${flag} "${printable(value)}" is not a date like 2026-03-05`,
  refactorWouldLose: (count: number, where: string, line: string, words: string[]) =>
    `refactor would lose ${count} line(s), e.g. ${where} "${printable(line)}"${words.length ? ` (the words ${words.slice(0, 5).join(', ')})` : ''}; nothing was changed`,
  demotedHistory: (type: string) =>
    `${type === 'other' ? 'a' : `a ${type}`} memory: the index does not fit in what the agent loads (200 lines, 25,000 characters), and standing rules stay in it before history and references`,
  demotedRule: () => 'even standing rules alone do not fit in what the agent loads (200 lines, 25,000 characters): the least recently changed go to the second level',
  fixWouldHideRule: () => 'not fixed: the fix would take a standing rule out of what the agent loads of MEMORY.md (fix it by hand)',
  keptToKeepWords: () => 'left as it is: refactor could not change it without losing words (merge or edit it by hand)',
  pointerNotLoaded: (file: string) =>
    `memdir: the pointer to ${file} is past what the agent loads of MEMORY.md (200 lines, 25,000 characters): it will not see this memory until the index is shorter (\`memdir refactor\`)`,
  dreamWouldLose: (count: number, where: string, line: string) => `dream would lose ${count} line(s) without a reason, e.g. ${where} "${printable(line)}"; nothing was changed`,
  dreamHookLeft: (left: number, unsaved: number, reported: boolean) =>
    `memdir dream: ${left} item(s) left for you, ${unsaved} request(s) to remember in no memory yet (${reported ? 'listed in the report' : 'listed by `memdir dream --dry-run --force`'})`,
  dreamNoDriftRepository: (dir: string) => `drift not checked: ${dir} belongs to no git repository (run from its project without --dir, or keep it inside the repository it is about)`,
  deadPointersKeptElsewhere: (dead: number, pointers: number) => `${dead} of ${pointers} pointers lead to files not in this directory (are the topic files kept out of git?); none is dropped`,
  deadPointerKeptForRule: (target: string) => `points to ${target}, which does not exist; left in the index: it states a rule the agent reads there`,
  dreamDriftRepository: (repository: string | null) => (repository ? `drift checked against the git repository ${repository}` : 'drift not checked: the memory directory belongs to no git repository'),
  dreamKeptToKeepWords: () => 'left as it is: dream could not change it without losing words (merge or edit it by hand)',
  untrustedDate: (expression: string) =>
    `relative date "${printable(expression)}" left as written: only the file time is known, which a clone or copy resets (add modified: to the frontmatter, commit the file, or pass --anchor-date)`,
  hookProgramMissing: (program: string) => `would not run: ${printable(program)} not found (not on PATH without npx's folders, or not executable: the shell exits 127)`,
  hookInterpreterMissing: (file: string, interpreter: string) => `would not run: ${printable(file)} needs ${printable(interpreter)}, which is not found (the shell exits 127)`,
  hookInstalledWouldNotRun: (command: string, detail: string) => `memdir hooks: "${printable(command)}" ${detail}; the hooks will skip until it runs (pass --command with a path that exists)`,
  hooksWouldNotRun: (count: number) =>
    `memdir hooks: ${count} of memdir's hooks would not run as Claude Code or git runs them (memdir hooks uninstall, then memdir hooks install writes a command that runs; or pass --command)`,
  hookCommandNotPlain: () => 'not checked: not one plain program call (memdir runs no hook command to find out)',
  hookCwdGone: (cwd: string) => `the session's directory ${cwd} no longer exists; nothing was done`,
  hookSkipped: (hook: string, reason: string) => `memdir ${hook} hook skipped: ${printable(reason).slice(0, 300)}`,
  guardIndexLines: (index: string, lines: number, limit: number) => `${index} would be ${lines} lines; Claude Code loads ${limit}. Put the detail in a topic file and add a one-line pointer.`,
  guardIndexBytes: (index: string, characters: number, limit: number) =>
    `${index} would be ${characters.toLocaleString('en-US')} characters; Claude Code loads ${limit.toLocaleString('en-US')}. Put the detail in a topic file and add a one-line pointer.`,
  guardInlineContent: (index: string, start: number, end: number) =>
    `This write puts content into ${index} (${start === end ? `line ${start}` : `lines ${start}–${end}`}); ${index} holds only one-line pointers. Write the detail to a topic file (frontmatter name, description, type) and add one line to ${index}: - [Title](file.md) — one-line hook.`,
  guardSecret: (file: string, line: number, finding: string) =>
    `${file} line ${line} would hold a secret (${printable(finding)}). Memory is loaded into every session: leave the secret out, or say where it is kept instead.`,
  guardPoisoning: (file: string, line: number, finding: string) =>
    `${file} line ${line} would hold text that reads as instructions to the agent (${printable(finding)}). Store what the user said as a fact, not as a command to future sessions.`,
  guardFrontmatter: (file: string, finding: string) =>
    `${file} would have bad frontmatter: ${printable(finding)}. A topic file starts with ---, then name:, description: and type: (user, feedback, project or reference), then ---.`,
  guardUnindexed: (file: string) => `${file} is not in MEMORY.md yet: add a one-line pointer - [Title](${file}) — hook, or the agent will not find it.`,
  guardEscape: (file: string, real: string) => `${file} leads outside the memory directory (to ${real}) through a symlink; write the memory inside the directory.`,
  guardAllowed: () => 'memdir guard: allowed (nothing this write adds breaks the memory directory)',
  guardBlocked: (reasons: string[]) => `memdir guard: ${reasons.join(' ')}`,
  hookInputTooLarge: (maxBytes: number) => `hook input on stdin is larger than ${maxBytes / 1024 / 1024} MB`,
  hookInputIncomplete: (waitedMs: number) => `no complete JSON object on stdin after ${waitedMs / 1000} s`,
  hookInputNotObject: () => 'hook input on stdin is not a JSON object',
  hookInputNotJson: (reason: string) => `hook input on stdin is not valid JSON (${reason})`,
  syncRemoteFailed: (remote: string, reason: string) => `sync: remote ${remote}: ${printable(reason)}`,
  syncFetchFailed: () => 'cannot fetch',
  syncPushFailed: () => 'cannot push',
  syncNoAnswer: (timeoutMs: number) => `no answer within ${timeoutMs / 1000} s; gave up (MEMDIR_NETWORK_TIMEOUT_MS sets the limit)`,
  syncAnswerTooLarge: (limit: number) => `the answer is larger than ${limit / (1024 * 1024)} MB; not read`,
  syncCloneMovedAside: (repo: string, aside: string) => `memdir: ${repo} was not memdir's sync clone (hooks, config or layout memdir did not write); moved it to ${aside} and made a fresh one`,
  syncNoRemote: (name: string, dir: string) => `sync: no git remote "${printable(name)}" in the repository at ${dir}`,
  syncNeedsUrl: () => 'sync --backend http needs --url (the server that speaks the team memory contract)',
  syncNeedsRepo: () => 'sync --backend http needs the repository as owner/repo: pass --repo, or run inside a git checkout whose origin names it',
  syncGaveUp: (retries: number) => `others kept writing: gave up after ${retries} retries; run sync again`,
  syncSecretRefused: (rules: string) => `contains a secret (${rules}); not uploaded (remove it, or pass --redact)`,
  syncSecretInName: (rules: string) => `its file name contains a secret (${rules}); not uploaded (rename the file)`,
  syncSecretRedacted: (rules: string, written: boolean) => `uploaded with the secret redacted (${rules})${written ? '; local file rewritten' : ''}`,
  syncRemoteChanged: () => 'changed on the remote since the last sync; run `memdir sync` (pull first) to take the remote version',
  syncBadKey: (side: 'remote' | 'local', problem: string) => `${side} path key refused: ${problem}`,
  syncCaseCollision: () => 'differs only in case from another file; refused (one file on case-insensitive systems)',
  syncPulledInvalid: (problem: string) => `remote version not taken: ${problem}`,
  syncNotWritable: (problem: string) => `cannot write it here: ${problem}`,
  syncWriteNeedsRedact: () => '--write needs --redact (it rewrites the local file with the secret redacted)',
  syncIndexMerged: () => "the remote's index, with this side's pointers it lacked",
  syncPointerKeptLocal: (target: string, why: string) => `kept local: pointer to ${printable(target)} (${printable(why)})`,
  syncPointerNotOnRemote: () => 'not on the remote',
  syncConflict: (copy: string) =>
    `changed here and on the remote since the last sync: yours kept, the remote's version written to ${printable(copy)}; not uploaded until \`memdir sync --resolve FILE --ours|--theirs\``,
  syncNoConflict: (file: string, copy: string) => `sync --resolve: ${printable(file)} has no conflict copy (${printable(copy)}); nothing to resolve`,
  syncResolveNeedsSide: () => "sync --resolve FILE needs --ours (keep yours; the next sync pushes it) or --theirs (take the remote's version)",
  syncSideNeedsResolve: () => '--ours and --theirs go with --resolve FILE',
  syncResolveAlone: () => 'sync --resolve settles one file and talks to no remote: no pull/push, --dry-run, --prune or --redact with it',
  syncResolved: (file: string, side: 'ours' | 'theirs') =>
    side === 'ours' ? `resolved ${printable(file)}: yours kept; the next sync pushes it` : `resolved ${printable(file)}: the remote's version taken`,
  syncEntryTooLarge: (bytes: number, limit: number) =>
    `${bytes.toLocaleString('en-US')} bytes, over the ${limit.toLocaleString('en-US')}-byte entry limit of the HTTP contract; not uploaded (split it)`,
  syncOverEntryLimit: (max: number) => `the server keeps at most ${max} entries; not uploaded (consolidate team memory)`,
  syncNoEntryChecksums: () => 'the server did not return entryChecksums (view=hashes unsupported)',
  syncHttpStatus: (status: number, method: string) => `HTTP ${status} on ${method}`,
  syncAnswerNotJson: (method: string) => `the answer to ${method} is not JSON`,
  syncAnswerNotObject: (method: string) => `the answer to ${method} is not a JSON object`,
  syncGaveUpRequest: (failure: string, attempts: number) => `${failure} (after ${attempts} attempts)`,
  syncServerRefusedSize: () => 'the server refused the upload as too large (413); not uploaded',
  exportNoDirectory: () => 'no memory directory here (nothing saved yet); nothing exported',
  exportExists: (out: string) => `export: ${out} exists; name a new .tar file or an empty folder with --out (an export never overwrites)`,
  exported: (count: number, out: string) => `exported ${count} file${count === 1 ? '' : 's'} to ${out}`,
  importNoSource: () => 'no such file or folder',
  importBadEntry: (entry: string, problem: string) => `entry "${printable(entry)}": ${problem}; nothing imported`,
  importLink: () => 'a link, not a file (links are never imported)',
  importNotFile: () => 'not a regular file',
  importDuplicate: () => 'appears twice in the archive',
  importNotMemory: () => 'not a memory file (hidden, or not .md); not imported',
  importStateSkipped: () => "memdir's own state of the other machine (.memdir/); not a memory, not imported",
  importSecret: (rules: string) => `contains a secret (${rules}); not imported (remove it, or pass --allow-secret)`,
  importConflict: () => 'differs from the file here; yours kept (compare them, then --force to take the imported one)',
  importIndexMerged: () => 'your index, with the imported pointers it lacked',
  importSummary: (summary: Record<string, number>, memdir: string) =>
    `${
      Object.entries(summary)
        .filter(([, n]) => n > 0)
        .map(([status, n]) => `${n} ${status}`)
        .join(', ') || 'nothing to import'
    } (${memdir})`,
  syncExcludedKey: () => 'this sync does not carry that folder (team/ is synced by `memdir sync`, private memory by `--scope personal`)',
  syncSecretSentPrivate: (rules: string) => `uploaded with its secret (${rules}): --allow-secret, and the remote is declared private in your config`,
  syncPersonalNeedsRemote: () => 'sync --scope personal needs a remote of your own: pass --remote URL, set MEMDIR_SYNC_PERSONAL_REMOTE, or sync.personalRemote in your user config',
  syncPersonalGitOnly: () => 'sync --scope personal uses the git backend only (the HTTP contract is for team memory)',
  syncAllowSecretNeedsPersonal: () => '--allow-secret is for --scope personal only: team memory is shared, its secrets are refused or redacted (--redact)',
  syncAllowSecretNeedsPrivate: () =>
    'sync --allow-secret: the remote is not declared private; set "sync": { "personalPrivate": true } in your user config (~/.config/memdir/config.json) if only you can read it',
  secretInMemory: (file: string, rules: string) =>
    `${file}: contains a secret (${rules}); a memory is loaded into every session, so memdir will not write it (remove the secret, or pass --redact to save it as [REDACTED], or --allow-secret)`,
  secretInTeam: (file: string, rules: string) => `${file}: contains a secret (${rules}); team memory is shared, so memdir will not write it (remove the secret)`,
  extractRejected: (op: string, file: string, reason: string) => `memdir extract: rejected ${op}${file ? ` ${printable(file)}` : ''}: ${reason}`,
  extractMainAgentWrote: (writes: number) => `memdir extract: skipped; the agent already wrote into the memory directory (${writes} write${writes === 1 ? '' : 's'})`,
  extractCoalesced: () => 'memdir extract: another run is in progress; it will take these messages next',
  memoryChangedSinceRead: (file: string) => `${file} changed while extract read it; left as it is`,
  extractReplaced: (file: string, was: string) => `memdir extract: ${printable(file)} now says what the user changed it to (it said: "${printable(was)}")`,
  extractMayContradict: (file: string, was: string, why: string) => `memdir extract: added to ${printable(file)}, which may contradict it (it says: "${printable(was)}"); not replaced: ${why}`,
  extractSaved: (count: number) => `Saved ${count} memor${count === 1 ? 'y' : 'ies'}`,
  extractConsidered: (count: number) => (count === 0 ? 'Considered no statement.' : `Considered ${count} statement${count === 1 ? '' : 's'}:`),
  extractNoTranscript: () => 'the Stop hook input names no transcript_path',
  transcriptNotFile: (kind: string) => `is ${kind}, not a transcript file`,
  transcriptTooLarge: (limit: number) => `larger than ${limit / (1024 * 1024 * 1024)} GB, the most memdir reads of a transcript; not a transcript`,
  extractCandidatesRecorded: (count: number) => `memdir extract: ${count} statement${count === 1 ? '' : 's'} inferred, not saved by the Stop hook's mode; kept for review (memdir extract --review)`,
  extractCandidateReason: (kind: string) =>
    `inferred (${({ standing: 'a preference or convention', confirmation: 'an approach the user confirmed', identity: 'about the user', reference: 'where information lives', project: 'a project fact' } as Record<string, string>)[kind] ?? kind}), not asked for: the Stop hook saves explicit requests and standing instructions only`,
  extractNoCandidates: () => 'no extract candidates waiting for review',
  extractUnknownCandidate: (id: string) => `no extract candidate ${printable(id)} (memdir extract --review lists them)`,
  extractCandidateNotSaved: (id: string, reason: string) => `candidate ${printable(id)} was not saved: ${reason}; it stays for review`,
  extractCandidateAccepted: (id: string, file: string) => `Accepted ${printable(id)}: saved ${printable(file)}`,
  extractCandidateDiscarded: (id: string) => `Discarded ${printable(id)}`,
  extractReviewExclusive: () => 'give one of --review, --accept ID and --discard ID, without a transcript',
  sessionNeedsInput: () => 'give a transcript: memdir session --from FILE (or - for stdin), or --hook',
  sessionWritten: (file: string, tokens: number, why: string) => `memdir session: wrote ${printable(file)} (${tokens} tokens; ${why})`,
  sessionUnchanged: (file: string) => `memdir session: ${printable(file)} already says this`,
  sessionNotWritten: (why: string) => `memdir session: notes not written: ${why}`,
  sessionLineLeftOut: (why: string) => `memdir session: left out a line the model wrote: ${why}`,
  sessionFellBack: (reason: string) => `memdir session: the claude engine failed (${reason}); the local engine wrote the notes`,
  sessionTrailingRun: (transcript: string, outcome: string) => `memdir session: trailing run over ${printable(transcript)}: ${outcome}`,
  extractNeedsInput: () => 'give a transcript: memdir extract --from FILE (or - for stdin), or --hook',
  dreamUndoChanged: (file: string, run: string) => `${file} changed since the dream run ${run}; nothing was restored (undo it by hand from .memdir/dream/${run}/)`,
  dreamCommitOutsideGit: (dir: string) => `${dir}: --commit needs the memory directory inside a git work tree; nothing was changed`,
  dreamRunning: (pid: number | undefined) => `dream is already running${pid ? ` (process ${pid})` : ''}`,
  dreamOverBudget: (deletes: number, memories: number, maxDelete: number) => `the plan deletes ${deletes} of ${memories} memories, over the ${maxDelete}% budget (--max-delete); nothing was changed`,
  dreamNotDue: (reason: string) => `dream is not due: ${reason}`,
  dreamNothingToUndo: () => 'no dream run to undo',
  noMemoryDirectory: (dir: string) => `${dir}: no memory directory here`,
  reportThisDirectory: () => 'please report this with the directory',
  noSuchPath: (input: string) => `${input}: no such file or directory`,
  notMemoryDirectory: (input: string) => `${input}: not a memory directory (no MEMORY.md or .md files); try --all-in-repo`,
  notInGitRepository: (flag: string) => `${flag}: not inside a git repository`,
  recallNeedsQuery: () => 'give a query: memdir recall "what the agent is about to do"',
  queryLineNotObject: () => 'not a JSON object',
  queryNotString: () => '"query" must be a string',
  settingsNotJson: (file: string, reason: string) => `${file}: settings file is not valid JSON (${reason})`,
  settingsNotObject: (file: string) => `${file}: settings file must hold a JSON object`,
  fixOrRemoveFile: () => 'fix the file or remove it',
  templatesNotFound: () => 'memdir templates/ folder not found next to the package',
  engineFellBack: (command: string, reason: string) => `memdir ${command}: ${reason}; using the local engine`,
  recallModelUnknownFiles: (files: readonly string[]) => `memdir recall: the model named files that do not exist (${files.join(', ')}); ignored`,
  modelTimedOut: (timeoutMs: number) => `model call timed out after ${timeoutMs} ms`,
  modelCallFailed: (status: string, detail: string | undefined) => `model call failed (${status}): ${detail}`,
  modelCallBroke: (reason: string) => `model call failed: ${reason}`,
  modelCheckKey: () => 'check ANTHROPIC_API_KEY',
  modelKeyRefused: (error: string) => `the API key was refused, check ANTHROPIC_API_KEY (${error})`,
  modelNoStructuredOutput: () => 'model answered without the structured output it was asked for',
  modelOutputInvalid: (problem: string) => `model output is invalid: ${problem}`,
  recallNoMatch: () => 'memdir recall: no memory matches',
  listNoMemories: () => 'memdir list: no memories',
  lintNothingToLint: (missingDir: string | undefined) => `memdir lint: no memory files to lint${missingDir ? ` (${missingDir} does not exist)` : ''}`,
  savedIn: (dir: string) => `in ${dir}`,
  indexCutWhenLoaded: (indexFile: string) => `memdir: ${indexFile} is cut when loaded; run \`memdir refactor\``,
  dreamNotApplied: (operation: string, error: string) => `memdir dream: not applied, the model's ${operation}: ${error}`,
  dreamLeftForYou: (file: string, message: string) => `left for you: ${file}: ${message}`,
  dreamNotSaved: (transcript: string, text: string) => `not in memory yet (asked in ${transcript}): ${text}`,
  dreamReportAt: (report: string) => `report: ${report}`,
  dreamCommitted: (commit: string) => `committed ${commit}`,
  diffCreated: (file: string) => `new file: ${printable(file)}`,
  diffDeleted: (file: string) => `deleted: ${printable(file)}`,
  agentViewLoaded: (before: LoadedCount, after: LoadedCount, wordsGone: number) =>
    `what the agent loads of MEMORY.md: ${before.lines} → ${after.lines} lines, ${before.characters.toLocaleString('en-US')} → ${after.characters.toLocaleString('en-US')} characters, ${before.words.toLocaleString('en-US')} → ${after.words.toLocaleString('en-US')} words${wordsGone ? ` (${wordsGone} no longer loaded)` : ''}`,
  agentViewRules: (before: number, after: number) => `standing rules the agent sees: ${before} → ${after}${after < before ? ` (${before - after} no longer loaded)` : ''}`,
  agentViewRuleLost: (clause: string, keptIn: string | null) => `no longer loaded: "${printable(clause)}"${keptIn ? ` (now only in ${printable(keptIn)})` : ''}`,
  agentViewFiles: (counts: { changed: number; created: number; deleted: number }, dryRun: boolean) =>
    `${dryRun ? 'would touch' : 'touched'} ${counts.changed + counts.created + counts.deleted} file(s): ${counts.changed} changed, ${counts.created} created, ${counts.deleted} deleted`,
  engineNeedsKey: () => '--engine claude needs ANTHROPIC_API_KEY',
  engineNeedsKeyHint: () => 'set it, or use --engine local',
  configNotJson: (file: string, reason: string) => `${file}: not valid JSON (${reason})`,
  configProblem: (file: string, keyPath: string, problem: string) => `${file}: ${keyPath}: ${problem}`,
  hooksCommandEmpty: () => '--command must not be empty',
  gitHookOutsideRepository: () => '--git: not inside a git repository (run it in one, or pass --claude only)',
  gitHookNoGitDir: () => '--git: cannot find the git directory',
  // memdir docs (Magic Docs)
  docsLink: () => 'a symbolic link; memdir never writes through one, left as it is',
  docsOutsideRepository: () => 'its real path leaves the repository (a link on the way); left as it is',
  docsTooLarge: (bytes: number, limit: number) => `${bytes.toLocaleString('en-US')} bytes, over the ${limit / 1024} KB limit for a Magic Doc; left as it is`,
  docsNotAFile: () => 'no longer a regular file; left as it is',
  docsNoLongerMagic: () => 'no longer starts with "# MAGIC DOC:"; left as it is',
  docsChangedSinceRead: () => 'changed while memdir was updating it; left as it is (the next turn that reads it tries again)',
  docsRefusedHeader: () => 'the answer does not keep the "# MAGIC DOC:" line and the instructions line as they are; refused, the doc is left as it was',
  docsRefusedGrowth: () => 'the answer is more than twice the size of the doc; refused, the doc is left as it was',
  docsRefusedTooLarge: () => 'the answer is over the size limit of a Magic Doc; refused, the doc is left as it was',
  docsRefusedSecret: (rule: string) => `the answer adds what looks like a secret (rule ${rule}); refused, the doc is left as it was`,
  docsRefusedNul: () => 'the answer holds a NUL character; refused, the doc is left as it was',
  docsRefusedEmpty: () => 'the answer is empty; refused, the doc is left as it was',
  docsNotTried: () => 'not tried: the model call of an earlier doc failed; the next turn that reads it tries again',
  docsOverRunLimit: (limit: number) => `not tried: the turn read more docs than the ${limit} one run updates; the next turn that reads it tries again`,
  docsUpdating: (file: string) => `memdir docs: updating ${printable(file)}`,
  docsTrailingRun: (transcript: string, updated: number) => `memdir docs: trailing run over ${printable(transcript)}: ${updated} doc(s) updated`,
  docsTrailingRunFailed: (transcript: string, reason: string) => `memdir docs: trailing run over ${printable(transcript)} failed: ${printable(reason)}`,
  docsCoalesced: () => 'memdir docs: another run is in progress; it will take this transcript next',
  docsNone: () => 'No Magic Docs in this repository (a Markdown file git lists whose first line is "# MAGIC DOC: <title>")',
  docsSkipped: (file: string, reason: string) => `memdir docs: skipped ${printable(file)}: ${reason}`,
  docsTruncated: (limit: number) => `memdir docs: more than ${limit.toLocaleString('en-US')} Markdown files; only the first ${limit.toLocaleString('en-US')} were looked at`,
  docsRefused: (file: string, reason: string) => `memdir docs: ${printable(file)}: ${reason}`,
  docsFailed: (file: string, reason: string) => `memdir docs: ${printable(file)} not updated: ${printable(reason)}`,
  docsOffline: () => 'nothing written (local engine: with ANTHROPIC_API_KEY set, or --engine claude, the docs read in a turn are updated)',
  docsHookNeedsKey: () => 'memdir hooks: docs --hook updates Magic Docs only when ANTHROPIC_API_KEY is set where Claude Code runs; without it the hook does nothing',
  docsGitFailed: (root: string, reason: string) => `${root}: git could not list the Markdown files (${printable(reason)})`,
  docsNotInGit: () => 'memdir docs: not inside a git repository; Magic Docs are the Markdown files git lists',
  notATranscript: (lines: number, reasons: string) => `not a Claude Code transcript (JSONL): none of its ${lines} line${lines === 1 ? '' : 's'} is a transcript entry (${reasons})`,
} as const;

/** Lines, characters and words of the loaded index. */
interface LoadedCount {
  lines: number;
  characters: number;
  words: number;
}

const ESCAPES: Record<string, string> = { '\0': '\\0', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `value` with control characters, line and paragraph separators, bidi overrides and lone surrogates escaped: it prints as one inert line. */
export function printable(value: string): string {
  return value.replace(/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu, escapeCharacter);
}

/** Text of several lines (a diff) with what `printable` escapes escaped, line breaks and tabs kept. */
export function printableLines(value: string): string {
  return value.replace(/[^\P{Cc}\n\t]|[\u2028\u2029\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu, escapeCharacter);
}

function escapeCharacter(c: string): string {
  return ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
