/**
 * The SessionEnd hook's fast path (`memdir dream --hook`, loaded by bin/memdir.cjs without the
 * CLI): every session end asks whether a consolidation is due, and almost always it is not. When
 * the gate says "not due" from its state alone (the .consolidate-lock mtime, or a session count
 * under 10 minutes old), the hook ends here, quietly, with exit 0 as the full command would. When
 * it is due, a scan is needed, or anything is unusual (a config file, a warning, an error), the
 * full CLI takes over in the same process, with the hook input already read.
 */
import fs from 'node:fs';
import { configSources } from '../config/find.js';
import { fieldDefault } from '../config/sections.js';
import { messages } from '../core/messages.js';
import { redactOutput } from '../core/secrets.js';
import { handOverHookInput, isHookProbe, readRawHookInput, typedHookInput, type SessionEndInput } from '../claude-code/hook-io.js';
import { resolveMemoryDir } from '../store/resolve.js';
import { now } from '../store/test-hooks.js';
import { type GateOptions, gateWithoutScan, notDueByHours } from './gate.js';

interface DreamHookArgs {
  dir?: string | undefined;
  minHours?: number | undefined;
  minSessions?: number | undefined;
  ifDue?: boolean | undefined;
  trustProjectSettings: boolean;
}

/**
 * Where the gate is judged when the fast path may judge it: the directory and the gate's options, or
 * 'no-directory'. Undefined when the full CLI must decide: a resolution warning, or a configuration
 * (it may set the gate and is validated with the lint rules).
 */
function gateTarget(args: DreamHookArgs, cwd: string | undefined): { dir: string; options: GateOptions } | 'no-directory' | undefined {
  const resolution = resolveMemoryDir({ dir: args.dir, cwd, trustProjectSettings: args.trustProjectSettings || undefined });
  if (resolution.warnings.length > 0) return undefined;
  if (!fs.existsSync(resolution.dir)) return 'no-directory';
  const projectRoot = cwd ?? resolution.projectRoot;
  if (configSources({ dir: resolution.dir, cwd: projectRoot }).length > 0) return undefined;
  return {
    dir: resolution.dir,
    options: { minHours: args.minHours ?? fieldDefault('dream', 'minHours'), minSessions: args.minSessions ?? fieldDefault('dream', 'minSessions'), now: now(), projectRoot },
  };
}

/** True when the hook is answered (not due, or its input unreadable); false hands over to the full CLI. */
async function answeredWithoutCli(args: DreamHookArgs): Promise<boolean> {
  // Not due by the hours, judged before stdin is read: reading a pipe costs more than the rest of the
  // hook, and most session ends fall within the hours. Claude Code runs hooks in the session's
  // directory, so process.cwd() stands for the input's `cwd`; the unread input is left in the pipe,
  // as any hook that ignores its input leaves it.
  const probe = isHookProbe();
  try {
    // doctor's probe reads the input as a real session end does.
    const early = probe ? undefined : gateTarget(args, process.cwd());
    if (typeof early === 'object' && notDueByHours(early.dir, early.options)) return true;
  } catch {
    // judged again below, with the input
  }
  let raw: Record<string, unknown>;
  try {
    raw = await readRawHookInput();
  } catch (error) {
    // What the full command's runAsHook says for the same input.
    process.stderr.write(`${redactOutput(messages.hookSkipped('dream', (error as Error).message))}\n`);
    return true;
  }
  handOverHookInput(raw);
  try {
    const input = typedHookInput<SessionEndInput>(raw);
    const target = gateTarget(args, input.cwd);
    if (target === undefined) return false;
    if (target === 'no-directory') return true;
    // doctor's probe: the gate's count is recorded and a consolidation writes; neither for a probe.
    if (probe) return true;
    const gate = gateWithoutScan(target.dir, { ...target.options, sessionId: input.session_id });
    return gate !== undefined && !gate.due;
  } catch {
    return false; // the full CLI says what went wrong, the way it always does
  }
}

/**
 * The fast path of `dream --hook` (src/fast/dream.ts): true when it took the command (`fullCli` runs
 * the CLI when it hands over). `--no-if-due` makes "not due" an exit 1 with a warning: the full CLI says so.
 */
export function takeFastPath(args: DreamHookArgs, fullCli?: () => void): boolean {
  if (!fullCli || args.ifDue === false) return false;
  void answeredWithoutCli(args).then((answered) => {
    if (!answered) fullCli();
  });
  return true;
}
