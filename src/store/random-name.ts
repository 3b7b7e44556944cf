/**
 * Random hex for temporary and lock file names. Web Crypto's global rather than node:crypto: it
 * loads on first use, so the hook fast paths, which bundle this module but mostly only read,
 * start without loading the crypto modules (a few ms of every hook).
 */
export function randomHex(bytes: number): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}
