// `memdir where` startup against bare `node -e ""`, interleaved in one run.
import path from 'node:path';
import { baseBin, baseRows, benchEnv, compare, environmentLabel, report, root, timeBareNode, timeCommand } from './lib.js';

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
      ...(baseBin && { baseWhere: () => timeCommand(process.execPath, [baseBin, 'where', '--quiet'], { env }) }),
    },
    rounds,
  );
  const ratio = medians.where / medians.node;
  report(`startup (median of ${rounds}, interleaved, ${environmentLabel})`, [
    ['node -e ""', `${medians.node.toFixed(1)} ms`],
    ['memdir where', `${medians.where.toFixed(1)} ms`],
    ['memdir --help', `${medians.help.toFixed(1)} ms`],
    ['where / node (goal ≤ 1.5×)', `${ratio.toFixed(2)}×`],
    ...baseRows([['memdir where', medians.baseWhere]], medians.node),
  ]);
  return { ...medians, ratio };
}
