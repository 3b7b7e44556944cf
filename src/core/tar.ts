/**
 * The tar format export and import speak: POSIX ustar, regular files only, written and read in
 * memory (a memory directory is small: topic files are capped). Reading also understands what
 * other tars write for long names (pax `x` headers, GNU `L` records) and reports every other kind
 * of entry (links, devices) by its type, so the caller can refuse it. Pure: bytes in, bytes out.
 */

const BLOCK = 512;

export type TarEntry = { path: string; type: 'file'; bytes: Buffer } | { path: string; type: 'dir' } | { path: string; type: 'link' | 'other'; kind: string };

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, type: string, mtime: number, prefix = ''): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(type === '5' ? 0o700 : 0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.max(0, Math.floor(mtime)), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

function padded(bytes: Buffer): Buffer[] {
  const rest = bytes.length % BLOCK;
  return rest === 0 ? [bytes] : [bytes, Buffer.alloc(BLOCK - rest)];
}

/** A name as ustar holds it: in the name field, split into prefix and name at a slash, or undefined when neither fits. */
function ustarName(path: string): { name: string; prefix: string } | undefined {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let at = path.indexOf('/'); at > 0; at = path.indexOf('/', at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  return undefined;
}

/** A pax record `"<len> path=<value>\n"`, whose length counts itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

/** A tar of regular files (mode 0600), in the order given; a name longer than ustar holds gets a pax header. */
export function writeTar(files: Array<{ path: string; bytes: Buffer; mtimeMs?: number }>): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    const mtime = (file.mtimeMs ?? 0) / 1000;
    const fits = ustarName(file.path);
    if (!fits) {
      const pax = Buffer.from(paxRecord('path', file.path));
      parts.push(header('PaxHeader', pax.length, 'x', mtime), ...padded(pax));
    }
    parts.push(header(fits?.name ?? file.path.slice(0, 100), file.bytes.length, '0', mtime, fits?.prefix), ...padded(file.bytes));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function number(block: Buffer, start: number, length: number): number {
  const text = field(block, start, length).trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

const KINDS: Record<string, string> = { '1': 'a hard link', '2': 'a symbolic link', '3': 'a character device', '4': 'a block device', '6': 'a FIFO' };

/** The entries of a tar, or the problem that makes it unreadable (not a tar, truncated, a bad checksum). */
export function readTar(bytes: Buffer): { entries: TarEntry[] } | { problem: string } {
  const entries: TarEntry[] = [];
  let longName: string | undefined;
  for (let at = 0; ; ) {
    if (at + BLOCK > bytes.length) return at === 0 ? { problem: 'not a tar archive (empty)' } : { problem: 'truncated tar archive (no end marker)' };
    const block = bytes.subarray(at, at + BLOCK);
    if (block.every((b) => b === 0)) return { entries };
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
    if (number(block, 148, 8) !== sum) return { problem: at === 0 ? 'not a tar archive' : `bad header checksum at byte ${at}` };
    const size = number(block, 124, 12);
    const type = String.fromCharCode(block[156]!);
    const dataStart = at + BLOCK;
    const dataEnd = dataStart + size;
    if (!Number.isSafeInteger(size) || dataEnd > bytes.length) return { problem: `truncated tar archive at byte ${at}` };
    const data = bytes.subarray(dataStart, dataEnd);
    at = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    const magic = field(block, 257, 6);
    const prefix = magic.startsWith('ustar') ? field(block, 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100));
    if (type === 'x') {
      for (const match of data.toString('utf8').matchAll(/^\d+ path=(.*)$/gm)) longName = match[1];
      continue;
    }
    if (type === 'L') {
      longName = data.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    if (type === 'g') continue;
    longName = undefined;
    if (type === '0' || type === '\0' || type === '7') entries.push({ path: name, type: 'file', bytes: Buffer.from(data) });
    else if (type === '5') entries.push({ path: name, type: 'dir' });
    else entries.push({ path: name, type: type === '1' || type === '2' ? 'link' : 'other', kind: KINDS[type] ?? `an entry of type "${type}"` });
  }
}
