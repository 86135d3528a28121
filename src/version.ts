import { readFileSync } from 'node:fs';

/** Set by the single-executable build (scripts/build-binary.mjs), which has no package.json beside it. */
declare const SCPCTL_BUILT_VERSION: string | undefined;

let cached: string | undefined;

/** The package version: built in, or read once from package.json beside dist/. */
export function version(): string {
  if (typeof SCPCTL_BUILT_VERSION === 'string') return SCPCTL_BUILT_VERSION;
  cached ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}
