// `memdir where` startup against bare `node -e ""`, interleaved in one run.
import path from 'node:path';
import { compare, report, root, timeCommand } from './lib.js';

export default function startup({ rounds = 30 } = {}) {
  const bin = path.join(root, 'bin/memdir.cjs');
  const env = { ...process.env, NO_COLOR: '1' };
  // Warm the file cache (and Node's compile cache where supported) first.
  timeCommand(process.execPath, [bin, 'where']);
  const medians = compare(
    {
      node: () => timeCommand(process.execPath, ['-e', '']),
      where: () => timeCommand(process.execPath, [bin, 'where', '--quiet'], { env }),
      help: () => timeCommand(process.execPath, [bin, '--help'], { env }),
    },
    rounds,
  );
  const ratio = medians.where / medians.node;
  report(`startup (median of ${rounds}, interleaved)`, [
    ['node -e ""', `${medians.node.toFixed(1)} ms`],
    ['memdir where', `${medians.where.toFixed(1)} ms`],
    ['memdir --help', `${medians.help.toFixed(1)} ms`],
    ['where / node (goal ≤ 1.5×)', `${ratio.toFixed(2)}×`],
  ]);
  return { ...medians, ratio };
}
