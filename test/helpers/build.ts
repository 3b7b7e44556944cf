import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** CLI tests run the built binary; build once so they test the current source. */
export default function setup(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  execFileSync(process.execPath, [path.join(root, 'node_modules/tsup/dist/cli-default.js'), '--silent'], { cwd: root, stdio: 'inherit', env: { ...process.env, MEMDIR_BUILD_TYPES: '0' } });
}
