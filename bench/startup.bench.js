// `memdir where` startup against bare `node -e ""`, interleaved in one run.
import path from 'node:path';
import { benchEnv, compare, environmentLabel, report, root, timeBareNode, timeCommand } from './lib.js';

export default function startup({ rounds = 30 } = {}) {
  const bin = path.join(root, 'bin/memdir.cjs');
  const env = benchEnv();
  // Warm the file cache (and Node's compile cache where supported) first.
  timeCommand(process.execPath, [bin, 'where'], { env });
  const medians = compare(
    {
      node: () => timeBareNode(env),
      where: () => timeCommand(process.execPath, [bin, 'where', '--quiet'], { env }),
      help: () => timeCommand(process.execPath, [bin, '--help'], { env }),
    },
    rounds,
  );
  const ratio = medians.where / medians.node;
  report(`startup (median of ${rounds}, interleaved, ${environmentLabel})`, [
    ['node -e ""', `${medians.node.toFixed(1)} ms`],
    ['memdir where', `${medians.where.toFixed(1)} ms`],
    ['memdir --help', `${medians.help.toFixed(1)} ms`],
    ['where / node (goal ≤ 1.5×)', `${ratio.toFixed(2)}×`],
  ]);
  return { ...medians, ratio };
}
