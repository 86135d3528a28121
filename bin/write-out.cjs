// How the launchers (bin/scpctl.js, and scripts/sea-main.cjs in the single executable, which the build gives
// this file's text) print the one line they answer themselves, `--version`, before any of the bundle is
// loaded. It follows the bundle's rule for stdout (src/io.ts, exitOnStdoutFailure): a reader gone away
// (EPIPE) is its choice, not an error; any other failure is one line and exit 1. Straight to the file
// descriptor: making process.stdout for a pipe loads net, 4 ms of a 40 ms run; a pipe another process made
// non-blocking and full (EAGAIN) gets the stream, which waits for room.
'use strict';

function writeOut(text) {
  try {
    require('node:fs').writeSync(1, text);
  } catch (error) {
    if (error.code === 'EAGAIN') {
      process.stdout.on('error', failed);
      process.stdout.write(text);
    } else failed(error);
  }
}

function failed(error) {
  if (error.code === 'EPIPE') return;
  process.stderr.write(`scpctl: cannot write the output: ${error.code ?? error.message}\n`);
  process.exitCode = 1;
}

module.exports = { writeOut };
