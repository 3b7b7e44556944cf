import { findSecrets } from '../../core/secrets.js';
import { position } from '../../core/dir-model.js';
import type { SourceFile } from '../../core/dir-model.js';
import type { Rule } from '../types.js';

export const secret: Rule = {
  id: 'MEM020',
  name: 'secret',
  description: 'A credential (provider token, private key) in memory: it is loaded into every session and shared by sync. The finding names the kind, never the secret.',
  severity: 'error',
  fixable: false,
  tags: ['safety'],
  examples: {
    valid: [
      { files: { 'reference_aws.md': '---\nname: AWS\ndescription: Where the AWS credentials live for the billing account\ntype: reference\n---\nCredentials are in 1Password, vault "billing".\n' } },
    ],
    invalid: [{ files: { 'reference_aws.md': `---\nname: AWS\ndescription: AWS key for billing\ntype: reference\n---\nKey: ${'AKIA'}IOSFODNN7EXAMPLE\n` } }],
  },
  check(model, report) {
    const sources: SourceFile[] = [...(model.index ? [model.index] : []), ...model.topics];
    for (const source of sources) {
      for (const hit of findSecrets(source.text)) {
        report({ file: source.path, ...position(source, hit.index), message: `possible ${hit.rule.description} (${hit.rule.id}); remove it and rotate the credential` });
      }
    }
  },
};
