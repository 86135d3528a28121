// `scpctl emulator` for the scripts (demo, bench, the code cache's training): started on port 0 from the
// package's bin/scpctl.js; resolves once it prints where it listens. (The tests have their own, in-process.)
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'scpctl.js');

/** The emulator's URL once it listens, and `stop` (SIGTERM, resolved once it has exited); rejects if it exits before. */
export async function startEmulator(args, { stderr = 'inherit' } = {}) {
  const child = spawn(process.execPath, [bin, 'emulator', '--port', '0', ...args], { stdio: ['ignore', 'pipe', stderr] });
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const listening = /^listening on (\S+)/m.exec(seen);
      if (listening) resolve(listening[1]);
    });
    child.on('exit', (code) => reject(new Error(`the emulator exited early (${code})`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
