// The entry of the bundle (scripts/bundle.mjs): the package's shim runs it, and Node's single-executable
// application runs it as its main script, with argv as a script sees it (the executable, itself, then the
// words). `finished` lets the build run it several times in one process to make its code cache
// (scripts/code-cache.cjs).
import { runAsProcess } from './main.js';

export const finished = runAsProcess(process.argv.slice(2));
