// `scpctl emulator`: runs the local API emulator in the foreground until SIGINT or SIGTERM.

import { readFileSync, writeFileSync } from 'node:fs';
import { parseRate } from '../../api/rate-limit.js';
import { optionalInteger } from '../../core/whole-number.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/server.js';
import { splitList } from '../../emulator/store.js';
import { UsageError } from '../../errors.js';
import type { Io } from '../../io.js';

export const DEFAULT_TOKEN = 'emulator-token';

/** The options as commander hands them over: strings (those with a default always there), `profile` repeatable. */
export type EmulatorCommandOptions = Record<'host' | 'port' | 'events' | 'seed' | 'pendingMs', string> &
  Partial<Record<'token' | 'tokenFile' | 'adminKeyFile' | 'state' | 'tlsCert' | 'tlsKey' | 'rate' | 'pageCap', string>> & {
    profile?: string[];
    http200Errors?: boolean;
  };

/** `NAME` or `NAME=bucket,bucket`. */
function parseProfileSpecs(specs: readonly string[]): EmulatorOptions['profiles'] {
  const seen = new Set<string>();
  return specs.map((spec) => {
    const eq = spec.indexOf('=');
    const name = (eq < 0 ? spec : spec.slice(0, eq)).trim();
    if (name === '') throw new Error(`--profile needs NAME or NAME=bucket,bucket..., got '${spec}'`);
    if (seen.has(name)) throw new Error(`--profile ${name} is given more than once`);
    seen.add(name);
    return { name, buckets: eq < 0 ? [] : splitList(spec.slice(eq + 1)) };
  });
}

/** A new file only this user can read, never through a symlink or over a file that is there. */
function writeSecretFile(path: string, text: string): void {
  try {
    // 'wx' is O_CREAT | O_EXCL, which fails on a path that is there, a symlink included (never followed).
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot write --admin-key-file ${path}: ${code === 'EEXIST' ? 'it exists already (a new file is made each run)' : (code ?? 'error')}`);
  }
}

function readFlagFile(flag: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(`cannot read ${flag} ${path}: ${(err as Error).message}`);
  }
}

/**
 * The token the emulator accepts: --token, else --token-file, else SCPCTL_EMULATOR_TOKEN, else the default.
 * The file and the variable keep a chosen token out of the process list (`ps` shows argv to everyone).
 */
function emulatorToken(opts: EmulatorCommandOptions, env: NodeJS.ProcessEnv): string {
  if (opts.token !== undefined) return opts.token;
  if (opts.tokenFile !== undefined) return readFlagFile('--token-file', opts.tokenFile).toString('utf8').trim();
  return env.SCPCTL_EMULATOR_TOKEN?.trim() ?? DEFAULT_TOKEN;
}

/** Validates the command's options and turns them into the server's. */
export function buildEmulatorOptions(opts: EmulatorCommandOptions, env: NodeJS.ProcessEnv = {}): EmulatorOptions {
  const token = emulatorToken(opts, env);
  if (token === '' || /[\s]/.test(token)) throw new Error('--token must be non-empty and without whitespace');
  if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) {
    throw new Error('--tls-cert and --tls-key must be given together');
  }
  return {
    host: opts.host,
    port: optionalInteger('--port', opts.port, 0, 65535)!,
    token,
    statePath: opts.state,
    profiles: opts.profile && parseProfileSpecs(opts.profile),
    events: optionalInteger('--events', opts.events, 0, 5_000_000)!,
    // mulberry32 reads the seed as 32 bits unsigned: a negative one would only repeat another's events.
    seed: optionalInteger('--seed', opts.seed, 0, 2 ** 32 - 1)!,
    pendingMs: optionalInteger('--pending-ms', opts.pendingMs, 0, 24 * 3600 * 1000)!,
    tls:
      opts.tlsCert !== undefined && opts.tlsKey !== undefined
        ? { cert: readFlagFile('--tls-cert', opts.tlsCert), key: readFlagFile('--tls-key', opts.tlsKey) }
        : undefined,
    rateLimit: opts.rate !== undefined ? parseRate(opts.rate, '--rate') : undefined,
    http200Errors: Boolean(opts.http200Errors),
    pageCap: optionalInteger('--page-cap', opts.pageCap, 1, 9999),
  };
}

/**
 * Starts the emulator, prints `listening on URL` as the first line of stdout (scripts wait for it
 * and read the port from it), and resolves once a signal or POST /__emulator/shutdown stopped it.
 */
export async function runEmulator(opts: EmulatorCommandOptions, io: Io, signals?: NodeJS.EventEmitter): Promise<void> {
  const { stdout, stderr } = io;
  // A server: it shuts down on signals itself (below), and that is a normal exit, not an interruption.
  let options: EmulatorOptions;
  let emu: Emulator;
  try {
    options = buildEmulatorOptions(opts, io.env);
    emu = await startEmulator({ ...options, log: (line) => stderr.write(`${line}\n`), clock: io.clock });
    if (opts.adminKeyFile !== undefined) writeSecretFile(opts.adminKeyFile, `${emu.adminKey}\n`);
  } catch (error) {
    // Bad options and start-up failures (a port in use) are about what was asked for.
    if (emu!) await emu.close();
    throw new UsageError(`emulator: ${(error as Error).message}`);
  }

  stdout.write(`listening on ${emu.url}\n`);
  // The second line: what the admin routes need (Authorization: Bearer KEY), unless a file holds it.
  stdout.write(opts.adminKeyFile === undefined ? `admin key: ${emu.adminKey}\n` : `admin key file: ${opts.adminKeyFile}\n`);
  const names = emu.store.names();
  // A token of the caller's choosing is not echoed: logs of test runs and demos are often shared.
  const token = options.token === DEFAULT_TOKEN ? DEFAULT_TOKEN : "'<your --token>'";
  stderr.write(
    `scpctl emulator: profiles ${names.join(', ') || '(none)'}${opts.state ? ` (state in ${opts.state})` : ''}` +
      `; ${options.events} events (seed ${options.seed})` +
      `${options.pendingMs ? `; changes pending for ${options.pendingMs} ms` : ''}` +
      `${options.rateLimit ? `; rate limit ${opts.rate}` : ''}` +
      `${options.http200Errors ? '; errors as HTTP 200 with status error (as the service)' : ''}` +
      `${options.pageCap ? `; report pages capped at ${options.pageCap}` : ''}\n` +
      `scpctl emulator: try  SCPCTL_BASE_URL=${emu.url} SCPCTL_TOKEN=${token} scpctl buckets view ${names[0] ?? 'PROFILE'}\n` +
      `scpctl emulator: press Ctrl-C to stop\n`,
  );

  await new Promise<void>((resolve) => {
    const stop = () => {
      signals?.off('SIGINT', stop);
      signals?.off('SIGTERM', stop);
      void emu.close().then(resolve, resolve);
    };
    signals?.once('SIGINT', stop);
    signals?.once('SIGTERM', stop);
    void emu.closed.then(stop);
  });
}
