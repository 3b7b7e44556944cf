// memdir's notes of one transcript, in a process of their own: `keepSessionNotes` as `memdir
// session --from FILE` calls it (read, thresholds, local engine, budget, atomic write). Prints
// the time from the call to the notes written, CPU time and peak memory.
import { pathToFileURL } from 'node:url';

const [file, dir, library] = process.argv.slice(2);
const { keepSessionNotes } = await import(pathToFileURL(library).href);
const start = process.hrtime.bigint();
const cpuStart = process.cpuUsage();
const result = await keepSessionNotes({ dir, transcript: file, initTokens: 10_000, updateTokens: 5_000, toolCalls: 3, maxTokens: 6_000 });
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const cpu = process.cpuUsage(cpuStart);
console.log(
  JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssKb: process.resourceUsage().maxRSS,
    status: result.status,
    lines: result.lines.read,
    conversationTokens: result.conversationTokens,
    notesTokens: result.notesTokens,
    folded: result.folded,
  }),
);
