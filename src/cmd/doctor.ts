import type { ArgumentsCamelCase } from 'yargs';
import type { DoctorOptions } from '../doctor/run.js';
import { commandOptions } from '../shell/options.js';
import { runCommand } from '../shell/run-command.js';
import { doctor } from './table/doctor.js';

export const { command, describe } = doctor;
export const builder = commandOptions(doctor);

export function handler(args: ArgumentsCamelCase<DoctorOptions>): Promise<void> {
  // doctor reports what `hooks status` does; two features meet here, in the entry layer.
  return runCommand(args, async () => {
    const [{ runDoctor }, { hookStatusRows }] = await Promise.all([import('../doctor/run.js'), import('../hooks/command.js')]);
    return (options: DoctorOptions, output) => runDoctor({ ...options, hookRows: () => hookStatusRows() }, output);
  });
}
