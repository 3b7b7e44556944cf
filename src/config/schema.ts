import { SECTIONS, type FieldSpec } from './sections.js';
import { SEVERITIES, type ConfigurableRule } from './validate.js';

function fieldSchema(spec: FieldSpec): Record<string, unknown> {
  const description = spec.trust === 'user' ? `${spec.description}; only from your own config (a project's file is ignored for it unless --trust-project-settings)` : spec.description;
  const fallback = spec.default === undefined ? {} : { default: spec.default };
  switch (spec.type) {
    case 'boolean':
      return { type: 'boolean', description, ...fallback };
    case 'integer':
    case 'number':
      return { type: spec.type, description, ...(spec.minimum !== undefined && { minimum: spec.minimum }), ...(spec.maximum !== undefined && { maximum: spec.maximum }), ...fallback };
    case 'string':
      return { type: 'string', description, ...(spec.enum && { enum: [...spec.enum] }), ...fallback };
  }
}

const SEVERITY_SCHEMA = { enum: [...SEVERITIES, 'warn', 0, 1, 2], description: 'off, info, warning (warn, 1) or error (2)' };

/**
 * The JSON schema of memdir.config.json (shipped as memdir.config.schema.json;
 * editors complete the file through its `$schema`). Generated from the same
 * specs that validate the file. Pure.
 */
export function configSchema(rules: readonly ConfigurableRule[], version: string): Record<string, unknown> {
  const ruleProperties: Record<string, unknown> = {};
  for (const rule of rules) {
    const options = Object.fromEntries(Object.entries(rule.options ?? {}).map(([key, spec]) => [key, fieldSchema(spec)]));
    const entry = {
      description: `${rule.id} ${rule.name}`,
      oneOf: [SEVERITY_SCHEMA, { type: 'object', properties: { severity: SEVERITY_SCHEMA, ...options }, additionalProperties: false }],
    };
    ruleProperties[rule.id] = entry;
    ruleProperties[rule.name] = entry;
  }
  for (const tag of [...new Set(rules.flatMap((r) => r.tags))].sort()) {
    ruleProperties[tag] = { description: `every rule tagged ${tag}`, oneOf: [SEVERITY_SCHEMA, { type: 'object', properties: { severity: SEVERITY_SCHEMA }, additionalProperties: false }] };
  }
  const sections = Object.fromEntries(
    Object.entries(SECTIONS).map(([name, fields]) => [
      name,
      { type: 'object', description: `memdir ${name}`, properties: Object.fromEntries(Object.entries(fields).map(([key, spec]) => [key, fieldSchema(spec)])), additionalProperties: false },
    ]),
  );
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `https://unpkg.com/memdir@${version}/memdir.config.schema.json`,
    title: 'memdir configuration',
    type: 'object',
    properties: {
      $schema: { type: 'string' },
      rules: { type: 'object', description: 'lint rules by id, name or tag: a severity, or an object of options', properties: ruleProperties, additionalProperties: false },
      ignore: { type: 'array', items: { type: 'string' }, description: 'globs (relative to the memory directory) of files not to lint' },
      skipIndex: { type: 'boolean', description: 'topic files without an index: do not require MEMORY.md or pointers' },
      ...sections,
    },
    additionalProperties: false,
  };
}
