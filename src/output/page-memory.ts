// `report --all` holds one page at a time, but V8 grows its heap rather than collect old pages early, so peak
// memory would grow with the record count. A full collection between pages keeps it flat; with a heap of one
// page it costs a few milliseconds. `--expose-gc` can be set at run time; where that fails we do without.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

export function releasePageMemory(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
