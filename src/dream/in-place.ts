import { messages } from '../core/messages.js';
import { classifyPointerTarget, renderMemoryIndex, topicFilesKeptElsewhere, type IndexLine } from '../core/memory-index.js';
import { isStandingRule, ruleWords } from '../core/standing-rules.js';
import { INDEX_FILE } from '../core/taxonomy.js';
import { serializeTopicFile } from '../core/topic-file.js';
import { indexStats, type RefactorPlan } from '../restructure/phases/state.js';
import type { DreamState } from './phases.js';

/** A link target for a path: as it is, unless a space or bracket would end the link. */
const linkTarget = (path: string) => (/[\s()<>]/.test(path) ? encodeURI(path) : path);

/**
 * The plan of a run on an index the agent loads whole: the index stays as the user wrote it —
 * sections, tables, blank lines, order, byte for byte — except the pointer lines a named problem
 * needs changed. A pointer to a file that does not exist goes, unless lines are nested under it
 * or it states a standing rule (then it is reported: the agent reads the rule there). A pointer
 * to a memory deleted by this run goes. A pointer to a merged-away file goes when the survivor's
 * own pointer already says all it says; otherwise it is re-pointed at the survivor.
 */
export function planInPlace(dream: DreamState): RefactorPlan {
  const { plan: state } = dream;
  const index = state.parsedIndex;
  const fileOf = (line: IndexLine) => {
    if (line.kind !== 'pointer') return undefined;
    const target = classifyPointerTarget(line.target);
    return target.kind === 'file' ? target.path : undefined;
  };
  const survivorOf = (path: string) => {
    let current = path;
    while (state.mergedAway.has(current)) current = state.mergedAway.get(current)!;
    return current;
  };
  /** The words of the pointer lines each file keeps. */
  const pointerWords = new Map<string, Set<string>>();
  for (const line of index.lines) {
    const path = fileOf(line);
    if (path && !state.mergedAway.has(path)) pointerWords.set(path, new Set([...(pointerWords.get(path) ?? []), ...ruleWords(line.raw)]));
  }

  const pointerLines = index.lines.filter((line) => line.kind === 'pointer');
  const deadCount = pointerLines.filter((line) => {
    const path = fileOf(line);
    return path?.endsWith('.md') && !state.files.has(path);
  }).length;
  const keptElsewhere = topicFilesKeptElsewhere(deadCount, pointerLines.length);
  if (keptElsewhere) state.warnings.push({ path: INDEX_FILE, message: messages.deadPointersKeptElsewhere(deadCount, pointerLines.length) });

  const lines = index.lines.flatMap((line, i): IndexLine[] => {
    const path = fileOf(line);
    if (!path || line.kind !== 'pointer') return [line];
    const drop = (reason: string, action: string, kind: 'dead-pointer' | 'index' = 'index'): IndexLine[] => {
      state.dropped.push({ text: line.raw, reason, source: INDEX_FILE });
      dream.actions.push({ kind, path: INDEX_FILE, effect: 'rewrite', reason: action });
      return [];
    };
    const deleted = dream.deleted.get(path);
    if (deleted) return drop(deleted, `dropped the pointer to ${path}: the memory was deleted (${deleted})`);
    const survivor = survivorOf(path);
    if (survivor !== path) {
      if (ruleWords(line.raw).every((w) => pointerWords.get(survivor)?.has(w))) {
        return drop(`${path} was merged into ${survivor}, whose pointer says all this one says`, `dropped the pointer to ${path}: merged into ${survivor}, whose pointer says all it says`);
      }
      const at = line.raw.lastIndexOf(`(${line.target}`) + 1;
      const raw = `${line.raw.slice(0, at)}${linkTarget(survivor)}${line.raw.slice(at + line.target.length)}`;
      dream.actions.push({ kind: 'index', path: INDEX_FILE, effect: 'rewrite', reason: `pointed the pointer to ${path} at ${survivor}: merged there` });
      return [{ ...line, raw, target: linkTarget(survivor) }];
    }
    if (state.files.has(path) || !path.endsWith('.md') || keptElsewhere) return [line];
    const next = index.lines[i + 1];
    // Lines nested under it are the index's own text about it.
    if (next && next.kind !== 'blank' && /^\s/.test(next.raw)) return [line];
    if (isStandingRule(line.raw)) {
      state.warnings.push({ path: INDEX_FILE, message: `line ${line.line} ${messages.deadPointerKeptForRule(path)}` });
      return [line];
    }
    return drop(`points to ${path}, which does not exist`, `dropped the pointer to ${path}: it does not exist`, 'dead-pointer');
  });

  const changes = new Map<string, string | null>();
  for (const topic of state.topics.values()) {
    if (topic.leftAlone) continue;
    const text = serializeTopicFile(topic.file);
    if (text !== topic.originalText) changes.set(topic.path, text);
  }
  for (const path of [...state.mergedAway.keys(), ...dream.deleted.keys()]) changes.set(path, null);
  const indexText = renderMemoryIndex({ ...index, lines });
  if (indexText !== state.indexText) changes.set(INDEX_FILE, indexText);
  return { blocks: [], operations: state.operations, changes, dropped: state.dropped, warnings: state.warnings, before: indexStats(state.indexText), after: indexStats(indexText) };
}
