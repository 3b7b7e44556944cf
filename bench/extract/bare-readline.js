// For reference: the textbook way, node:readline + JSON.parse per line.
import fs from 'node:fs';
import readline from 'node:readline';

const start = process.hrtime.bigint();
const cpuStart = process.cpuUsage();
let objects = 0;
let malformed = 0;
const lines = readline.createInterface({ input: fs.createReadStream(process.argv[2]), crlfDelay: Infinity });
for await (const line of lines) {
  if (line === '') continue;
  try {
    JSON.parse(line);
    objects++;
  } catch {
    malformed++;
  }
}
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const cpu = process.cpuUsage(cpuStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(JSON.stringify({ ms, cpuMs, maxRssKb: process.resourceUsage().maxRSS, objects, malformed }));
