import type { Rule } from './types.js';

function fence(text: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}markdown\n${text.endsWith('\n') ? text : `${text}\n`}${ticks}`;
}

function example(files: Record<string, string>): string {
  return Object.entries(files)
    .map(([file, text]) =>
      text.includes('\u0000')
        ? `\`${file}\`: (binary content)`
        : `\`${file}\`\n\n${fence(text.length > 1200 ? `${text.slice(0, 1200)}\n… (${text.length.toLocaleString('en-US')} characters in all)` : text)}`,
    )
    .join('\n\n');
}

function optionsDoc(rule: Rule): string[] {
  const options = Object.entries(rule.options ?? {});
  if (options.length === 0) return [];
  const example = Object.fromEntries(options.map(([key, spec]) => [key, spec.default]));
  return [
    'Options (defaults shown):',
    '',
    ...options.map(([key, spec]) => `- \`${key}\` (${spec.type}, default \`${JSON.stringify(spec.default)}\`): ${spec.description}`),
    '',
    '```json',
    JSON.stringify({ rules: { [rule.id]: { severity: rule.severity, ...example } } }, null, 2),
    '```',
    '',
  ];
}

/** The documentation page of a rule (docs/rules/<id>.md), generated from the rule object. */
export function ruleDoc(rule: Rule): string {
  return [
    `# ${rule.id} ${rule.name}`,
    '',
    rule.description,
    '',
    `- Default severity: **${rule.severity}**`,
    `- Fixable with \`memdir lint --fix\`: **${rule.fixable ? 'yes' : 'no'}**`,
    `- Tags: ${rule.tags.map((t) => `\`${t}\``).join(', ')}`,
    '',
    '## Incorrect',
    '',
    ...rule.examples.invalid.map((e) => `${example(e.files)}\n`),
    '## Correct',
    '',
    ...rule.examples.valid.map((e) => `${example(e.files)}\n`),
    '## Configuration',
    '',
    'Turn the rule off or change its severity in `memdir.config.json` (by id, name or tag):',
    '',
    '```json',
    JSON.stringify({ rules: { [rule.id]: 'off', [rule.name]: 'warning' } }, null, 2),
    '```',
    '',
    ...optionsDoc(rule),
    `Or inline, for part of a file: \`<!-- memdir-disable ${rule.id} -->\` … \`<!-- memdir-enable ${rule.id} -->\`.`,
    '',
  ].join('\n');
}
