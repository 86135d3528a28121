// Random hex digits for names and markers no one may guess. From the global Web Crypto, not node:crypto:
// the whole node:crypto module costs every small command about 2.5 ms of start-up, this half a millisecond,
// and only where it is used.
export function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let hex = '';
  for (const value of values) hex += value.toString(16).padStart(2, '0');
  return hex;
}
