// The entry of the bundle (scripts/bundle.mjs): the package's shim runs it, and Node's single-executable
// application runs it as its main script; it reads no word of the line, main.ts hands the line to commander.
// `finished` lets the build run the bundle several times in one process to make its code cache
// (scripts/code-cache.cjs).
import { runAsProcess } from './main.js';

export const finished: Promise<void> = runAsProcess();
