/**
 * The instruction files an agent loads in every session of a project (Claude Code's CLAUDE.md at
 * each level up to the repository root and the user's own, and the other agents' AGENTS.md,
 * GEMINI.md, .cursorrules, .windsurfrules, .clinerules, Copilot's): a statement one of them already
 * makes, or that the agent wrote into one while answering, needs no memory (docs/architecture.md#memory-types).
 */
import fs from 'node:fs';
import path from 'node:path';
import { containment, tokenSet } from '../core/similarity.js';
import { findGitRoot } from '../store/git-root.js';
import { configHome, homeDir } from '../store/settings.js';
import { type TranscriptMessage, WRITE_TOOLS } from '../claude-code/transcript.js';

/** Where they sit, relative to each folder from the working directory up to the repository root. */
const PROJECT_FILES = ['CLAUDE.md', 'CLAUDE.local.md', '.claude/CLAUDE.md', 'AGENTS.md', 'GEMINI.md', '.cursorrules', '.windsurfrules', '.clinerules', '.github/copilot-instructions.md'];
/** The same files by name, and Cursor's rule folder (`.cursor/rules/*.mdc`, not read: written ones are recognised). */
const INSTRUCTION_FILE = /(?:^|[\\/])(?:CLAUDE(?:\.local)?\.md|AGENTS\.md|GEMINI\.md|\.cursorrules|\.windsurfrules|\.clinerules|copilot-instructions\.md|\.cursor[\\/]rules[\\/][^\\/]+\.mdc)$/i;
const MAX_BYTES = 256 * 1024;
/** Share of a statement's terms one line of an instruction file must hold for the statement to be one it makes. */
const SAYS_IT = 0.6;
/** Shorter statements match too many lines by chance. */
const MIN_TERMS = 3;

export interface InstructionLine {
  file: string;
  terms: Set<string>;
}

/** The non-blank lines of the instruction files for `projectDir`, each as its search terms. */
export function readInstructionLines(projectDir: string, env: NodeJS.ProcessEnv = process.env): InstructionLine[] {
  const lines: InstructionLine[] = [];
  for (const file of instructionFiles(projectDir, env)) {
    let text: string;
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile() || stat.size > MAX_BYTES) continue; // a device, FIFO or folder named CLAUDE.md is never read
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue; // absent or unreadable
    }
    for (const line of text.split('\n')) if (line.trim()) lines.push({ file, terms: tokenSet(line) });
  }
  return lines;
}

function instructionFiles(projectDir: string, env: NodeJS.ProcessEnv): string[] {
  const start = path.resolve(projectDir);
  const stop = findGitRoot(start) ?? start;
  const files: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    for (const name of PROJECT_FILES) files.push(path.join(dir, name));
    if (dir === stop || path.dirname(dir) === dir) break;
  }
  files.push(path.join(configHome(env, homeDir(env)), 'CLAUDE.md'));
  return files;
}

/** The instruction file that already makes `statement`, if one does. Pure. */
export function fileSaying(statement: string, lines: readonly InstructionLine[]): string | undefined {
  const terms = tokenSet(statement);
  if (terms.size < MIN_TERMS) return undefined;
  return lines.find((line) => containment(terms, line.terms) >= SAYS_IT)?.file;
}

/** What one message's tool uses wrote into instruction files: file and new text. */
export function instructionWrites(message: TranscriptMessage): Array<{ file: string; text: string }> {
  const written: Array<{ file: string; text: string }> = [];
  for (const use of message.toolUses) {
    const file = use.input.file_path;
    if (WRITE_TOOLS.has(use.name) && typeof file === 'string' && INSTRUCTION_FILE.test(file)) written.push({ file, text: writtenText(use.input) });
  }
  return written;
}

/** What the assistant wrote into instruction files while answering the prompt at `index` (up to the next prompt). */
export function instructionsWrittenAfter(messages: readonly TranscriptMessage[], index: number): Array<{ file: string; text: string }> {
  const written: Array<{ file: string; text: string }> = [];
  for (const message of messages.slice(index + 1)) {
    if (message.isHumanPrompt) break;
    written.push(...instructionWrites(message));
  }
  return written;
}

/** The new text of a Write (content), Edit (new_string) or MultiEdit (each edit's new_string). */
function writtenText(input: Record<string, unknown>): string {
  const strings = [input.content, input.new_string, ...(Array.isArray(input.edits) ? input.edits.map((edit) => (edit as Record<string, unknown>)?.new_string) : [])];
  return strings.filter((value): value is string => typeof value === 'string').join('\n');
}
