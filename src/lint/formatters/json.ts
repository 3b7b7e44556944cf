import type { Formatter } from './types.js';

/** One entry per file with findings, ESLint-like field names. */
export const json: Formatter = (results, context) => {
  const files = results.flatMap((result) => {
    const byFile = new Map<string, typeof result.findings>();
    for (const f of result.findings) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
    return [...byFile].map(([file, findings]) => ({
      filePath: context.display(result.dir, file),
      memoryDir: result.dir,
      errorCount: findings.filter((f) => f.severity === 'error').length,
      warningCount: findings.filter((f) => f.severity === 'warning').length,
      infoCount: findings.filter((f) => f.severity === 'info').length,
      fixableCount: findings.filter((f) => f.fix).length,
      messages: findings.map((f) => ({
        ruleId: f.ruleId,
        ruleName: f.ruleName,
        severity: f.severity,
        line: f.line,
        column: f.column,
        ...(f.endLine && { endLine: f.endLine }),
        message: f.message,
        fixable: Boolean(f.fix),
      })),
    }));
  });
  const fixed = results.flatMap((r) => r.fixed.map((file) => context.display(r.dir, file)));
  return `${JSON.stringify({ results: files, fixed }, null, 2)}\n`;
};
