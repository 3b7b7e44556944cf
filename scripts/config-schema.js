// npm run docs:schema — regenerate memdir.config.schema.json from the config specs and rule objects (the build must be current).
import fs from 'node:fs';
import path from 'node:path';
import { RULES, configSchema } from '../dist/internal.js';

const root = path.join(path.dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
fs.writeFileSync(path.join(root, 'memdir.config.schema.json'), `${JSON.stringify(configSchema(RULES, pkg.version), null, 2)}\n`);
console.log('wrote memdir.config.schema.json');
