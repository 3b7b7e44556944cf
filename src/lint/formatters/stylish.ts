import type { Formatter } from './types.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'info' } as const;
const RANK = { error: 0, warning: 1, info: 2 } as const;

/** Human output grouped by file, like ESLint's stylish. Colours come from the caller. */
export const stylish: Formatter = (results, context) => {
  const c = context.colors;
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let fixableErrors = 0;
  let fixableWarnings = 0;
  const perRule = new Map<string, number>();
  for (const result of results) {
    const byFile = new Map<string, typeof result.findings>();
    for (const f of result.findings) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
    for (const [file, unordered] of byFile) {
      // Errors first in each file, then warnings, then info; by line within each.
      const findings = [...unordered].sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.line - b.line || a.column - b.column);
      lines.push('', c.underline(context.display(result.dir, file)));
      const width = Math.max(...findings.map((f) => `${f.line}:${f.column}`.length));
      for (const f of findings) {
        const level = f.severity === 'error' ? c.red(LEVEL.error) : f.severity === 'warning' ? c.yellow(LEVEL.warning) : c.blue(LEVEL.info);
        lines.push(`  ${c.dim(`${f.line}:${f.column}`.padEnd(width))}  ${level.padEnd(f.severity === 'error' ? 7 : 7)}  ${f.message}  ${c.dim(`${f.ruleId} ${f.ruleName}`)}`);
        const rule = `${f.ruleId} ${f.ruleName}`;
        perRule.set(rule, (perRule.get(rule) ?? 0) + 1);
        if (f.severity === 'error') errors++;
        else if (f.severity === 'warning') warnings++;
        else infos++;
        if (f.fix && f.severity === 'error') fixableErrors++;
        if (f.fix && f.severity === 'warning') fixableWarnings++;
      }
    }
  }
  const fixed = results.flatMap((r) => r.fixed.map((file) => context.display(r.dir, file)));
  if (fixed.length > 0) lines.push('', `fixed ${fixed.length} file${fixed.length === 1 ? '' : 's'}: ${fixed.join(', ')}`);
  const total = errors + warnings + infos;
  if (total === 0) return fixed.length > 0 ? `${lines.join('\n').trimStart()}\n` : '';
  const summary = `${total} problem${total === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${infos ? `, ${infos} info` : ''})`;
  lines.push('', (errors ? c.red : c.yellow)(c.bold(`✖ ${summary}`)));
  const byRule = [...perRule].sort(([a], [b]) => a.localeCompare(b)).map(([rule, count]) => `${rule} ${count}`);
  lines.push(c.dim(`  by rule: ${byRule.join(', ')}`));
  if (fixableErrors + fixableWarnings > 0) {
    lines.push(c.dim(`  ${fixableErrors} error${fixableErrors === 1 ? '' : 's'} and ${fixableWarnings} warning${fixableWarnings === 1 ? '' : 's'} potentially fixable with --fix`));
  }
  return `${lines.join('\n').trimStart()}\n`;
};
