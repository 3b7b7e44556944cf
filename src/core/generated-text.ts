import type { MemoryType } from './taxonomy.js';
import { escapeRegExp } from './regexp.js';

/**
 * The sentences earlier memdir versions wrote into every extracted memory when the user gave none:
 * the **How to apply:** of each type and the **Why:** of a statement kept without a reason. Extract
 * no longer writes them, but users' existing memories hold them, so memories are compared without
 * them (`comparableText`: two short memories about different things would otherwise share most of
 * their words) and MEM015 reports them. Pure.
 */
export const HOW_TO_APPLY: Record<MemoryType, string> = {
  user: 'keep this in mind when explaining and deciding how to present work to this user.',
  feedback: 'follow this in every session of this project unless the user says otherwise.',
  project: 'take this into account when planning or changing related work in this project.',
  reference: 'look there first when this information is needed.',
};

/** The **Why:** of a statement with no reason given: who wants it kept, and since when (`day`: YYYY-MM-DD). */
export function defaultWhy(basis: 'request' | 'inferred', day: string): string {
  return basis === 'request' ? `the user asked for this to be kept (stated on ${day})` : `the user said so on ${day}; kept by memdir's rules, not at the user's request`;
}

const GENERATED_LINE = new RegExp(
  [
    String.raw`^\*\*How to apply:\*\* (?:${Object.values(HOW_TO_APPLY).map(escapeRegExp).join('|')})$`,
    String.raw`^\*\*Why:\*\* (?:${escapeRegExp(defaultWhy('request', '\0')).replace('\0', String.raw`\d{4}-\d\d-\d\d`)}|${escapeRegExp(defaultWhy('inferred', '\0')).replace('\0', String.raw`\d{4}-\d\d-\d\d`)})\.$`,
  ].join('|'),
);

/** Whether `line` is one of memdir's own default sentences (it says nothing about the memory). */
export function isGeneratedLine(line: string): boolean {
  return GENERATED_LINE.test(line.trim());
}
