import { findSecrets } from '../../core/secrets.js';
import { position } from '../../core/dir-model.js';
import type { SourceFile } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

export const secret: Rule = {
  id: 'MEM020',
  name: 'secret',
  description:
    "A credential (provider token, private key, a password written in prose) in memory: it is loaded into every session and shared by sync. gitleaks' rules, betterleaks' where gitleaks has none, and memdir's own; a looser rule's finding is a warning, unless its value can only be a credential (see docs/safety.md). Provider-shaped placeholders (`ghp_xxxx…`, `…EXAMPLE…`) are no finding. The finding names the rule, never the secret.",
  severity: 'error',
  fixable: false,
  tags: ['safety'],
  examples: {
    valid: [
      { files: { 'reference_aws.md': '---\nname: AWS\ndescription: Where the AWS credentials live for the billing account\ntype: reference\n---\nCredentials are in 1Password, vault "billing".\n' } },
    ],
    invalid: [{ files: { 'reference_aws.md': `---\nname: AWS\ndescription: AWS key for billing\ntype: reference\n---\nKey: ${'AKIA'}QYLPMN5HHHBKZV7E\n` } }],
  },
  check(model, report) {
    const sources: SourceFile[] = [...(model.index ? [model.index] : []), ...model.topics];
    for (const source of sources) {
      // The name is printed (redacted) and shared as it is, so it is scanned like the text.
      const inName = findSecrets(source.path)[0];
      if (inName) report({ file: source.path, line: 1, column: 1, message: `possible secret in the file name (${inName.rule.id}); rename the file and rotate the credential` });
      for (const hit of findSecrets(source.text, { warnings: true })) {
        const kind = hit.rule.origin === 'memdir' ? hit.rule.description : 'secret';
        const message = `possible ${kind} (${hit.rule.id}); remove it and rotate the credential`;
        // A looser rule's finding is a warning: it does not block a commit or an upload.
        report({ file: source.path, ...position(source, hit.index), message, ...(hit.severity === 'warning' && { atMostWarning: true }) });
      }
    }
  },
};
