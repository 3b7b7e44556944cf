// The floor: read the file in chunks, split lines, JSON.parse each; nothing else.
// Prints the parse time and the process's peak memory.
import fs from 'node:fs';

const start = process.hrtime.bigint();
const cpuStart = process.cpuUsage();
let pending = [];
let objects = 0;
let malformed = 0;
function parse(bytes) {
  if (bytes.length === 0) return;
  try {
    JSON.parse(bytes.toString('utf8'));
    objects++;
  } catch {
    malformed++;
  }
}
for await (const chunk of fs.createReadStream(process.argv[2], { highWaterMark: 1024 * 1024 })) {
  let from = 0;
  for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, from)) {
    const tail = chunk.subarray(from, newline);
    parse(pending.length ? Buffer.concat([...pending, tail]) : tail);
    pending = [];
    from = newline + 1;
  }
  if (from < chunk.length) pending.push(chunk.subarray(from));
}
if (pending.length) parse(Buffer.concat(pending));
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const cpu = process.cpuUsage(cpuStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(JSON.stringify({ ms, cpuMs, maxRssKb: process.resourceUsage().maxRSS, objects, malformed }));
