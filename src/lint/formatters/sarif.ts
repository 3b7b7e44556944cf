import type { Formatter } from './types.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** SARIF 2.1.0 for GitHub code scanning: rule metadata with help, locations relative to the repository root. */
export const sarif: Formatter = (results, context) => {
  const rules = context.rules;
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'memdir',
            version: context.toolVersion,
            informationUri: context.docsUri(rules[0]!).replace(/docs\/rules\/.*$/, 'README.md'),
            rules: rules.map((rule) => ({
              id: rule.id,
              name: rule.name,
              shortDescription: { text: `${rule.name}: ${rule.description}`.slice(0, 1000) },
              fullDescription: { text: rule.description },
              helpUri: context.docsUri(rule),
              help: { text: rule.description, markdown: `**${rule.id} ${rule.name}**\n\n${rule.description}` },
              defaultConfiguration: { level: LEVEL[rule.severity] },
              properties: { tags: rule.tags, fixable: rule.fixable },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository root.' } } },
        results: results.flatMap((result) =>
          result.findings.map((f) => ({
            ruleId: f.ruleId,
            ruleIndex: ruleIndex.get(f.ruleId) ?? 0,
            level: LEVEL[f.severity],
            message: { text: f.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: context.artifactUri(result.dir, f.file),
                  region: { startLine: f.line, startColumn: f.column, ...(f.endLine && { endLine: f.endLine }) },
                },
              },
            ],
          })),
        ),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
