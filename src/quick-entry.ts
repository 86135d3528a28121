// The entry of the quick path's bundle, dist/quick.cjs (scripts/bundle.mjs): the shim and the executable run
// it first for a line that may be quick.ts's (`buckets view ...`). `finished` is undefined for any other
// line, which they then give to the whole bundle (single-executable.ts): nothing has been done or said yet.
import { runInProcess } from './io.js';
import { quickCall, runQuick } from './quick.js';

const argv = process.argv.slice(2);
const call = quickCall(argv);

export const finished: Promise<void> | undefined = call && runInProcess((io, options) => runQuick(call, io, options));
