// The floor for a safe writer: create N files the way memdir does (temp file, fsync, rename).
import fs from 'node:fs';
import path from 'node:path';

const [dir, count] = [process.argv[2], Number(process.argv[3])];
for (let i = 0; i < count; i++) {
  const temp = path.join(dir, `.tmp-${i}`);
  const fd = fs.openSync(temp, 'wx');
  fs.writeFileSync(fd, `---\nname: file ${i}\n---\n${'content line\n'.repeat(12)}`);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(temp, path.join(dir, `file_${i}.md`));
}
