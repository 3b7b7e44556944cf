// `node bench/recall/head-to-head.js OTHER_ROOT [rounds]`: this checkout's `recall --hook` against another
// build of memdir (e.g. a worktree of main, built) on the same warm 200-memory directory, interleaved
// with `node -e ""`, to tell a ranking change's cost on the hook apart from the machine's noise.
import fs from 'node:fs';
import path from 'node:path';
import { benchEnv, compare, generateMemoryDir, root, timeBareNode, timeCommand } from '../lib.js';

const [other, rounds = '30'] = process.argv.slice(2);
if (!other) {
  console.error('usage: node bench/recall/head-to-head.js OTHER_ROOT [rounds]');
  process.exit(2);
}
const env = benchEnv();
let session = 0;
const prompt = (bin, dir) =>
  timeCommand(process.execPath, [bin, 'recall', '--hook', '--dir', dir], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
    input: JSON.stringify({ session_id: `head-to-head-${session++}`, cwd: dir, prompt: 'can I merge the mobile branch during the release freeze?' }),
  });
const [here, there] = [path.join(root, 'bin/memdir.cjs'), path.join(path.resolve(other), 'bin/memdir.cjs')];
const dir = generateMemoryDir(200);
try {
  prompt(here, dir);
  prompt(there, dir);
  const m = compare({ node: () => timeBareNode(env), other: () => prompt(there, dir), here: () => prompt(here, dir) }, Number(rounds));
  console.log(
    `node -e "" ${m.node.toFixed(1)} ms · other ${m.other.toFixed(1)} ms (${(m.other / m.node).toFixed(2)}×) · this checkout ${m.here.toFixed(1)} ms (${(m.here / m.node).toFixed(2)}×) · this / other ${(m.here / m.other).toFixed(3)}`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
