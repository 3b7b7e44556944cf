import { memoryFields, withBody } from '../../core/topic-file.js';
import { rewriteDates, type PlanState } from './state.js';

/**
 * Dates are made absolute in project memories (docs/architecture.md#memory-types), once everything
 * has landed where it stays; elsewhere "tomorrow" is often an idiom.
 */
export function absoluteDates(state: PlanState): void {
  for (const topic of state.topics.values()) {
    if (topic.broken || memoryFields(topic.file.frontmatter?.data ?? {}).type !== 'project') continue;
    const body = rewriteDates(state, topic.path, topic.file.body, topic.dateFacts);
    if (body !== topic.file.body) topic.file = withBody(topic.file, body);
  }
}
