import { position } from '../../core/dir-model.js';
import { indexPointers } from '../pointers.js';
import type { Rule } from '../types.js';

// Said of the whole memory: in its name, description or first line, as a word of its own.
const MARKER = /\b(?:SUPERSEDED|DEPRECATED|HISTORICAL|OBSOLETE|ARCHIVED)\b|\bno longer (?:valid|true|applies|used|relevant|current)\b|已?废弃|作废|已过时|廃止|폐기/;

export const staleMarker: Rule = {
  id: 'MEM025',
  name: 'stale-marker',
  description:
    'A memory marked as superseded, deprecated, historical or obsolete (废弃…) in its name, description or first line is still indexed: the agent keeps loading it as if it held. Run memdir dream, or remove it and its pointer.',
  severity: 'warning',
  fixable: false,
  tags: ['content', 'index'],
  examples: {
    valid: [
      {
        files: {
          'MEMORY.md': '- [Deploy](project_deploy.md) — how deploys run\n',
          'project_deploy.md': '---\nname: Deploy\ndescription: How deploys run from the release branch\ntype: project\n---\nDeploys run from release/*.\n',
        },
      },
    ],
    invalid: [
      {
        files: {
          'MEMORY.md': '- [Deploy](project_deploy.md) — how deploys run\n',
          'project_deploy.md':
            '---\nname: Deploy\ndescription: How deploys run from the release branch\ntype: project\n---\n> SUPERSEDED 2026-05-04: see project_pipeline.md.\n\nDeploys run from release/*.\n',
        },
      },
    ],
  },
  check(model, report) {
    const indexed = new Set(indexPointers(model).flatMap(({ target }) => (target.kind === 'file' ? [target.path] : [])));
    for (const topic of model.topics) {
      if (!indexed.has(topic.path)) continue;
      const body = topic.topic.body;
      const firstLine = body.trimStart().split('\n', 1)[0] ?? '';
      const summary = `${topic.fields.name ?? ''}\n${topic.fields.description ?? ''}`;
      const word = MARKER.exec(summary)?.[0] ?? MARKER.exec(firstLine)?.[0];
      if (!word) continue;
      const at = MARKER.test(summary) ? topic.text.indexOf(word) : topic.text.length - body.length + body.indexOf(firstLine);
      report({ file: topic.path, ...position(topic, Math.max(0, at)), message: `marked "${word}" but still indexed; run memdir dream, or remove it and its pointer` });
    }
  },
};
