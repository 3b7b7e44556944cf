import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { messages } from '../core/messages.js';

let packageRoot: string | undefined;

/** The folder of the running memdir package (holding package.json and templates/), found from this module (src/ in tests, dist/ when built). */
export function packageDir(): string {
  if (packageRoot) return packageRoot;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'templates'))) return (packageRoot = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(messages.templatesNotFound());
    dir = parent;
  }
}

/** A template with `{{key}}` placeholders filled in. */
export function renderTemplate(name: string, values: Record<string, string>): string {
  const text = fs.readFileSync(path.join(packageDir(), 'templates', name), 'utf8');
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}
