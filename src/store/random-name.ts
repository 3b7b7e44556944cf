/**
 * Random hex for temporary and lock file names. These only need to differ between processes
 * (temp files are opened exclusively, a lock also records its pid), not to be secret, so
 * Math.random (seeded per process by V8) is enough: loading Web Crypto's global, or node:crypto,
 * would weigh on every hook that writes a session record (bench `hooks`).
 */
export function randomHex(bytes: number): string {
  let hex = '';
  for (let i = 0; i < bytes; i++) hex += byteHex(Math.floor(Math.random() * 256));
  return hex;
}

function byteHex(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}
