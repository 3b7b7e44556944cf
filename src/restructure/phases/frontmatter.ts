import { isMemoryType, missingWhyHow } from '../../core/taxonomy.js';
import { memoryFields, unquotedColonValues, withFields } from '../../core/topic-file.js';
import { clip, firstSentence, inferType, plainText, textWeight } from '../classify.js';
import { typeFromFileName, type PlanState } from './state.js';

/** Phase 5: existing files get missing frontmatter filled and values YAML rejects quoted; broken ones are reported. */
export function repairFrontmatter(state: PlanState): void {
  for (const topic of state.topics.values()) {
    if (topic.originalText === undefined) continue;
    if (topic.leftAlone) {
      state.warnings.push({ path: topic.path, message: topic.leftAlone });
      continue;
    }
    if (topic.broken) {
      state.warnings.push({ path: topic.path, message: 'frontmatter does not parse; left as it is (fix it by hand, then run refactor again)' });
      continue;
    }
    const fields = memoryFields(topic.file.frontmatter?.data ?? {});
    const fill: Record<string, string> = {};
    const fileType = typeFromFileName(topic.path);
    if (!fields.type || !isMemoryType(fields.type)) {
      // A prefix outside the taxonomy (`gotcha_`, `session_`) hints at the type; the content decides otherwise.
      if (!fields.type) fill.type = fileType ?? inferType(topic.file.body, /^([^_\-/]+)[_-]/.exec(topic.path.replace(/^.*\//, ''))?.[1] ?? '');
      else state.warnings.push({ path: topic.path, message: `type "${fields.type}" is not in the taxonomy; left as it is` });
    }
    if (!fields.name?.trim()) fill.name = clip(plainText(/^#+\s+(.+)$/m.exec(topic.file.body)?.[1] ?? topic.path.replace(/^.*\//, '').replace(/\.md$/, '').replace(/[_-]+/g, ' ')), 60);
    if (!fields.description?.trim()) {
      // What the body says, not its title again.
      const text = topic.file.body.replace(/^#{1,6}\s.*$/gm, '');
      const sentence = firstSentence(text, 140);
      fill.description = textWeight(sentence) >= 20 ? sentence : clip(`${fill.name ?? fields.name}: ${plainText(text) || 'memory'}`, 140);
    }
    // Values YAML rejects (unquoted ": ") are rewritten quoted; the parsed value is unchanged.
    const quoted = Object.fromEntries(unquotedColonValues(topic.file.frontmatter?.raw ?? '').map((v) => [v.key, v.value]));
    if (Object.keys(quoted).length) {
      topic.file = withFields(topic.file, quoted, { quote: true });
      state.operations.push({ kind: 'quote-frontmatter', path: topic.path, keys: Object.keys(quoted) });
    }
    if (Object.keys(fill).length) {
      topic.file = withFields(topic.file, fill);
      state.operations.push({ kind: 'fill-frontmatter', path: topic.path, fields: Object.keys(fill) });
    }
  }
}

/** Report what still lacks **Why:** / **How to apply:** (never invented). */
export function reportMissingWhyHow(state: PlanState): void {
  for (const topic of state.topics.values()) {
    if (topic.leftAlone) continue;
    const type = memoryFields(topic.file.frontmatter?.data ?? {}).type;
    const missing = missingWhyHow(type, topic.file.body);
    if (missing.length) state.warnings.push({ path: topic.path, message: `${type} memory without ${missing.join(' and ')} (add them by hand)` });
  }
}
