import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { messages } from '../core/messages.js';

let templatesDir: string | undefined;

/** `templates/` of the installed package, found from this module (src/ in tests, dist/ when built). */
function findTemplatesDir(): string {
  if (templatesDir) return templatesDir;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'templates');
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(candidate)) return (templatesDir = candidate);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(messages.templatesNotFound());
    dir = parent;
  }
}

/** A template with `{{key}}` placeholders filled in. */
export function renderTemplate(name: string, values: Record<string, string>): string {
  const text = fs.readFileSync(path.join(findTemplatesDir(), name), 'utf8');
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}
