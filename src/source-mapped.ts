// A --verbose stack trace names the source files and lines (src/settings/base-url.ts:24:11), not the
// bundle's. The shim runs the bundle as a vm.Script with its code cache (bin/scpctl.js), which Node's own
// source maps do not follow; so the map beside the bundle (dist/scpctl.cjs.map) is read here, when a stack
// is about to be printed, and never at start: reading and decoding it takes tens of milliseconds
// (docs/performance.md). A frame of another file (the tests' .ts, the single executable's asset, which has
// no map) is left as it is.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { basename, dirname, isAbsolute, resolve } from 'node:path';

/**
 * The bundle's own file, as its host hands it over (bin/scpctl.js calls the bundle as a CommonJS module).
 * Its frames may name another folder: V8 keeps the file name of the run that made the code cache (the build).
 */
declare const __filename: string | undefined;

/** `(FILE.cjs:LINE:COLUMN)` or `at FILE.cjs:LINE:COLUMN` in a frame of a stack. */
const FRAME = /(\(|at )([^()\s][^()]*?\.cjs):(\d+):(\d+)(?=\)|$)/gm;

/** `stack` with each frame in the bundle named by its source file and line, when the bundle has a map beside it. */
export function sourceMapped(stack: string, bundle: string | undefined = typeof __filename === 'string' ? __filename : undefined): string {
  if (bundle === undefined || !isAbsolute(bundle)) return stack;
  let map: SourceMap | undefined;
  let read = false;
  return stack.replace(FRAME, (frame, before: string, file: string, line: string, column: string) => {
    if (basename(file) !== basename(bundle)) return frame;
    if (!read) [map, read] = [mapBeside(bundle), true];
    const entry = map?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry) || typeof entry.originalSource !== 'string') return frame;
    return `${before}${resolve(dirname(bundle), entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

function mapBeside(bundle: string): SourceMap | undefined {
  try {
    return new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
  } catch {
    return undefined; // no map (or not one Node reads): the bundle's own names and lines
  }
}
