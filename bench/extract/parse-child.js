// memdir's reader over the file (module path in argv[3]); prints the parse time, peak memory and counts.
const { readTranscript } = await import(process.argv[3]);

const start = process.hrtime.bigint();
const cpuStart = process.cpuUsage();
const transcript = await readTranscript(process.argv[2]);
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const cpu = process.cpuUsage(cpuStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
const { lines, malformed, userPrompts, assistantMessages, toolUses } = transcript.counts;
console.log(JSON.stringify({ ms, cpuMs, maxRssKb: process.resourceUsage().maxRSS, lines, malformed, messages: transcript.messages.length, userPrompts, assistantMessages, toolUses }));
