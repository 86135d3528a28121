// The entry of the bundle (scripts/bundle.mjs): the package's shim runs it, and Node's single-executable
// application runs it as its main script, with argv as a script sees it (the executable, itself, then the
// words). `--version` is answered before the rest is loaded: a bundle initialises a module at its first
// import, so the commands, commander and the client are not even set up for it (the executable has no shim
// to answer it). `finished` lets the build run the bundle several times in one process to make its code
// cache (scripts/code-cache.cjs).
import { exitOnStdoutFailure, processIo } from './io.js';
import { version } from './version.js';

const argv = process.argv.slice(2);

export const finished: Promise<void> =
  argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')
    ? Promise.resolve(void processIo(exitOnStdoutFailure).stdout.write(`${version()}\n`))
    : import('./main.js').then(({ runAsProcess }) => runAsProcess(argv));
