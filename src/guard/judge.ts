/**
 * The guard's judge (docs/hooks.md#guard): a located write into the memory directory, applied in
 * memory and judged by lint's rules under the `guard` settings. Its own bundle for the fast path
 * (`dist/guard-judge.cjs`), loaded only when a write goes into the memory directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { messages } from '../core/messages.js';
import { INDEX_FILE, TEAM_DIR } from '../core/taxonomy.js';
import { loadConfig } from '../config/find.js';
import { sectionSettings, type SectionValues } from '../config/sections.js';
import { judgeWrite, type GuardVerdict } from './check.js';
import { proposedText, type GuardedTool } from './edit.js';
import type { GuardRequest, LocatedWrite } from './hook.js';

/** A file larger than this is no memory Claude Code loads; the guard does not read it. */
const MAX_GUARDED_BYTES = 8 * 1024 * 1024;

function readText(file: string): string | undefined | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (!stat.isFile() || stat.size > MAX_GUARDED_BYTES) return null;
  return fs.readFileSync(file, 'utf8');
}

/** The verdict on a located write; undefined when Claude Code would not write it (an old_string that does not match). */
export function judgeLocated(write: LocatedWrite, request: GuardRequest): GuardVerdict | undefined {
  const { raw, rel, target } = write;
  const trustProjectSettings = request.trustProjectSettings || undefined;
  const loaded = loadConfig({ dir: write.dir, cwd: write.cwd, trustProjectSettings, sections: ['guard'] });
  for (const warning of loaded.warnings) request.warn(warning);
  const settings = sectionSettings('guard', loaded.config.guard as SectionValues<'guard'>);
  if (write.escapesTo !== undefined) {
    const verdict: GuardVerdict = { block: [], warn: [] };
    if (settings.escape !== 'off') verdict[settings.escape].push(messages.guardEscape(rel, write.escapesTo));
    return verdict;
  }
  const team = rel.startsWith(`${TEAM_DIR}/`);
  const scopeDir = team ? path.join(write.dir, TEAM_DIR) : write.dir;
  const scopeRel = team ? rel.slice(TEAM_DIR.length + 1) : rel;
  const before = readText(target);
  if (before === null) return undefined;
  const after = proposedText(raw.tool_name as GuardedTool, raw.tool_input as Record<string, unknown>, before);
  // Claude Code refuses an edit whose old_string does not match: nothing would be written.
  if (after === undefined || after === before) return undefined;
  const index = scopeRel === INDEX_FILE ? undefined : (readText(path.join(scopeDir, INDEX_FILE)) ?? undefined);
  return judgeWrite({ file: scopeRel, scope: team ? `${TEAM_DIR}/` : '', before, after, index }, settings, loaded.config.ruleOptions);
}
