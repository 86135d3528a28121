// Random hex digits for names and markers no one may guess. From the global Web Crypto, not node:crypto,
// whose load every small command would pay at start-up (docs/performance.md).
export function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let hex = '';
  for (const value of values) hex += value.toString(16).padStart(2, '0');
  return hex;
}
