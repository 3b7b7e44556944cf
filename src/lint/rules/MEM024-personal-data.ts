import { position } from '../../core/dir-model.js';
import { proseOnly } from '../../core/prose.js';
import type { Rule } from '../types.js';

const EMAIL = /(?<![\w.%+-])([A-Za-z0-9._%+-]+)@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?![\w-])/g;
/** Addresses of roles and machines, and documentation domains: not a person's. */
const NOT_A_PERSON = /^(?:no-?reply|support|info|admin|hello|contact|team|security|bot|notifications?|sales|help|office|privacy|abuse|postmaster|webmaster|git)$/i;
const PLACEHOLDER_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost|users\.noreply\.github\.com|noreply\.github\.com|domain\.com|email\.com)$/i;
// A phone number is said as one: a leading + and country code, or a phone/tel/电话 label before it.
const PHONE = /(?:\+\d{1,3}[\s.-]?|(?:phone|tel|mobile|cell|电话|手机|電話|전화)[^\d\n]{0,6})\(?\d{2,4}\)?[\s.-]?\d{3,4}[\s.-]?\d{3,4}(?!\d)/gi;

export const personalData: Rule = {
  id: 'MEM024',
  name: 'personal-data',
  description:
    "E-mail addresses and phone numbers of people in a memory directory that lives in a repository: committed memory is shared, and other people's contact details do not belong there. The user's own configured git e-mail, role addresses (support@, noreply@) and documentation domains are left alone; the finding never prints the address.",
  severity: 'warning',
  fixable: false,
  tags: ['safety', 'content'],
  needs: ['repoFiles'],
  examples: {
    valid: [
      {
        inRepository: true,
        files: { 'reference_support.md': '---\nname: Support\ndescription: Where customers reach the support team for billing questions\ntype: reference\n---\nWrite to support@example.com.\n' },
      },
    ],
    invalid: [
      {
        inRepository: true,
        files: {
          'project_vendor.md': '---\nname: Vendor\ndescription: The storage vendor contact for the contract renewal\ntype: project\n---\nContact: jane.doe@acme-storage.io, +44 20 7946 0958.\n',
        },
      },
    ],
  },
  check(model, report) {
    // Outside a repository the memory is the user's own.
    if (model.repoFiles.size === 0) return;
    const own = model.userEmail?.toLowerCase();
    for (const topic of model.topics) {
      const text = topic.text;
      if (!text.includes('@') && !/\+\d|phone|tel|mobile|电话|手机|電話|전화/i.test(text)) continue;
      const prose = proseOnly(text);
      for (const m of text.matchAll(EMAIL)) {
        if (NOT_A_PERSON.test(m[1]!) || PLACEHOLDER_DOMAIN.test(m[2]!) || m[0].toLowerCase() === own) continue;
        report({
          file: topic.path,
          ...position(topic, m.index),
          message: 'an e-mail address of a person in committed memory; keep contact details out of the repository (or refer to the person by role)',
        });
      }
      for (const m of prose.matchAll(PHONE)) {
        report({ file: topic.path, ...position(topic, m.index), message: 'a phone number in committed memory; keep contact details out of the repository' });
      }
    }
  },
};
