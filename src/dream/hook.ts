/**
 * The SessionEnd hook's fast path (`memdir dream --hook`, loaded by bin/memdir.cjs without the
 * CLI): every session end asks whether a consolidation is due, and almost always it is not. When
 * the gate says "not due" from its state alone (the .consolidate-lock mtime, or a session count
 * under 10 minutes old), the hook ends here, quietly, with exit 0 as the full command would. When
 * it is due, a scan is needed, or anything is unusual (a config file, a warning, an error), the
 * full CLI takes over in the same process, with the hook input already read.
 */
import fs from 'node:fs';
import { locateConfig } from '../config/find.js';
import { messages } from '../core/messages.js';
import { handOverHookInput, readRawHookInput, typedHookInput, type SessionEndInput } from '../hooks/io.js';
import { parseHookArgs } from '../shell/hook-args.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { now } from './clock.js';
import { gateWithoutScan, notDueByHours } from './gate.js';

interface DreamHookArgs {
  dir: string | undefined;
  minHours: number | undefined;
  minSessions: number | undefined;
  trustProjectSettings: boolean;
}

/** `dream --hook` with only the flags a hook command line uses; undefined for anything else. */
export function simpleDreamHookArgs(argv: readonly string[]): DreamHookArgs | undefined {
  const parsed = parseHookArgs(argv, 'dream', ['--min-hours', '--min-sessions'], ['--if-due']);
  if (!parsed) return undefined;
  const hours = parsed.values['--min-hours'];
  const sessions = parsed.values['--min-sessions'];
  if ((hours !== undefined && !/^\d+(?:\.\d+)?$/.test(hours)) || (sessions !== undefined && !/^\d+$/.test(sessions))) return undefined;
  return {
    dir: parsed.values['--dir'],
    minHours: hours === undefined ? undefined : Number(hours),
    minSessions: sessions === undefined ? undefined : Number(sessions),
    trustProjectSettings: parsed.trustProjectSettings,
  };
}

/**
 * Not due by the hours since the last consolidation, judged before stdin is read: reading a pipe
 * costs more than the rest of the hook, and most session ends fall within the hours. Claude Code
 * runs hooks in the session's directory, so process.cwd() stands for the input's `cwd` here; the
 * unread input is left in the pipe, as any hook that ignores its input leaves it.
 */
function notDueBeforeInput(args: DreamHookArgs): boolean {
  try {
    const resolution = resolveMemoryDir({ dir: args.dir, cwd: process.cwd(), trustProjectSettings: args.trustProjectSettings || undefined });
    if (resolution.warnings.length > 0 || !fs.existsSync(resolution.dir)) return false;
    if (locateConfig(resolution.dir, resolution.projectRoot ?? resolution.dir)) return false;
    return notDueByHours(resolution.dir, { minHours: args.minHours ?? 24, minSessions: args.minSessions ?? 5, now: now(), projectRoot: resolution.projectRoot });
  } catch {
    return false;
  }
}

/** True when the hook is answered (not due, or its input unreadable); false hands over to the full CLI. */
async function answeredWithoutCli(args: DreamHookArgs): Promise<boolean> {
  if (notDueBeforeInput(args)) return true;
  let raw: Record<string, unknown>;
  try {
    raw = await readRawHookInput();
  } catch (error) {
    // What the full command's runAsHook says for the same input.
    process.stderr.write(`${messages.hookSkipped('dream', (error as Error).message)}\n`);
    return true;
  }
  handOverHookInput(raw);
  const input = typedHookInput<SessionEndInput>(raw);
  try {
    const resolution = resolveMemoryDir({ dir: args.dir, cwd: input.cwd, trustProjectSettings: args.trustProjectSettings || undefined });
    if (resolution.warnings.length > 0) return false;
    const { dir } = resolution;
    if (!fs.existsSync(dir)) return true;
    const projectRoot = input.cwd ?? resolution.projectRoot;
    // A configuration may set the gate (and must be validated with the lint rules): the full CLI reads it.
    if (locateConfig(dir, projectRoot ?? dir)) return false;
    const gate = gateWithoutScan(dir, { minHours: args.minHours ?? 24, minSessions: args.minSessions ?? 5, now: now(), projectRoot, sessionId: input.session_id });
    return gate !== undefined && !gate.due;
  } catch {
    return false; // the full CLI says what went wrong, the way it always does
  }
}

/** The fast path bin/memdir.cjs tries first: true when it took the command (`fullCli` runs the CLI when it hands over). */
export function tryFastPath(argv: readonly string[], fullCli?: () => void): boolean {
  const args = simpleDreamHookArgs(argv);
  if (!args || !fullCli) return false;
  void answeredWithoutCli(args).then((answered) => {
    if (!answered) fullCli();
  });
  return true;
}
