// `report --all` holds one page at a time, but V8 grows its heap rather than collect old pages early, so peak
// memory would grow with the record count. A full collection between pages keeps it flat; with a heap of one
// page it costs a few milliseconds. `--expose-gc` can be set at run time; where that fails we do without.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

export function releasePageMemory(): void {
  if (collect === undefined) {
    try {
      // What grew with the record count was V8's young generation: every page parses thousands of records
      // that all survive their first collections, and V8 answers a high survival rate by doubling the
      // young generation again and again (to 32 MB by page 11; `--trace-gc` shows it). Held at the size
      // the first page left it, peak memory no longer depends on how many pages follow.
      setFlagsFromString('--semi-space-growth-factor=1');
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
