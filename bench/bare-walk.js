// The peer for doctor: a Node process that walks a tree (readdir of every folder, recursively).
import fs from 'node:fs';
import path from 'node:path';

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) walk(path.join(dir, entry.name));
}
walk(process.argv[2]);
