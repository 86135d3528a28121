// End-to-end harness: the real binary (bin/scpctl.js, built) against the real emulator on port 0,
// each test file with its own emulator and its own temporary config folder.
import { execa, type Options, type ResultPromise } from 'execa';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { Readable, Writable } from 'node:stream';
import { request as httpRequest } from 'node:http';
import { Command } from 'commander';
import { main } from '../../src/main.js';
import { processIo } from '../../src/io.js';
import { addCommands } from '../../src/commands/command-spec.js';
import { emulatorCommand } from '../../src/commands/emulator/command.js';
import { buildEmulatorOptions, type EmulatorCommandOptions } from '../../src/commands/emulator/index.js';
import { startEmulator as startServer } from '../../src/emulator/server.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/scpctl.js');

/** A token with characters that URL-encoding changes, so a leak in either form is caught. */
export const TOKEN = 'tok_S3cr3t+/=Zq9XyW7vU5tR';

/** A request as the emulator's admin route reports it (the type is the emulator's own). */
export type { RequestRecord as RecordedRequest } from '../../src/emulator/server.js';
import type { RequestRecord as RecordedRequest } from '../../src/emulator/server.js';
import { TestClock } from '../test-clock.js';

/**
 * The time of the emulators and the runs in this process: it follows the wall clock, but a pause (a --wait,
 * a back-off, a Retry-After, the rate limit) jumps it ahead instead of taking real time. A built binary keeps
 * the real clock and still sees the emulator's time pass.
 */
export const testClock = new TestClock('real time');

export interface Emulator {
  url: string;
  token: string;
  requests(): Promise<RecordedRequest[]>;
  /** The requests other than list views: what the runs changed, or tried to. */
  changes(): Promise<RecordedRequest[]>;
  clearRequests(): Promise<void>;
  faults(faults: object[]): Promise<void>;
  clearFaults(): Promise<void>;
  setProfile(name: string, buckets: string[]): Promise<void>;
  profile(name: string): Promise<{ name: string; buckets: string[]; pendingUntil: number }>;
  setPending(name: string, ms: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the emulator on a free port: in this process (the declaration of `scpctl emulator` parses `args`,
 * as on the command line), or with `{ process: true }` as `scpctl emulator --port 0` in a process of its own.
 */
export async function startEmulator(args: readonly string[] = [], how: { process?: boolean } = {}): Promise<Emulator> {
  const started = how.process ? await emulatorProcess(args) : await emulatorHere(args);
  const { url } = started;
  // node:http rather than fetch: a few hundred admin calls a run, each a third of fetch's CPU. A connection
  // of its own each (agent: false), so that none is left open to hold up the emulator's stop.
  const admin = (method: string, path: string, body?: unknown): Promise<any> =>
    new Promise((resolveAnswer, reject) => {
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${started.adminKey}` };
      const call = httpRequest(`${url}/__emulator/${path}`, { method, agent: false, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          if (status < 200 || status > 299) reject(new Error(`admin ${method} ${path}: ${status} ${text}`));
          else resolveAnswer(text ? JSON.parse(text) : undefined);
        });
      });
      call.on('error', reject);
      call.end(body === undefined ? undefined : JSON.stringify(body));
    });
  return {
    url,
    token: TOKEN,
    requests: async () => (await admin('GET', 'requests')).requests,
    changes: async () => ((await admin('GET', 'requests')).requests as RecordedRequest[]).filter((r) => r.op !== 'viewBucketList'),
    clearRequests: () => admin('DELETE', 'requests'),
    faults: (faults) => admin('POST', 'faults', { faults }),
    clearFaults: () => admin('DELETE', 'faults'),
    setProfile: (name, buckets) => admin('PUT', `profiles/${encodeURIComponent(name)}`, { buckets }),
    profile: (name) => admin('GET', `profiles/${encodeURIComponent(name)}`),
    setPending: (name, ms) => admin('POST', `profiles/${encodeURIComponent(name)}/pending`, { ms }),
    stop: started.stop,
  };
}

async function emulatorHere(args: readonly string[]): Promise<{ url: string; adminKey: string; stop: () => Promise<void> }> {
  let parsed: EmulatorCommandOptions | undefined;
  const program = new Command().exitOverride();
  const declaration = { ...emulatorCommand, direct: async ({ args: [options] }: { args: unknown[] }) => void (parsed = options as EmulatorCommandOptions) };
  addCommands(program, [declaration], { program, io: processIo(), context: async () => { throw new Error('no context'); } });
  await program.parseAsync(['emulator', '--port', '0', '--token', TOKEN, ...args], { from: 'user' });
  const running = await startServer({ ...buildEmulatorOptions(parsed!), log: () => {}, clock: testClock });
  return { url: running.url, adminKey: running.adminKey, stop: () => running.close() };
}

async function emulatorProcess(args: readonly string[]): Promise<{ url: string; adminKey: string; stop: () => Promise<void> }> {
  // The token through the environment, as a user keeps it out of the process list.
  const child = execa('node', [BIN, 'emulator', '--port', '0', ...args], {
    reject: false,
    stdin: 'ignore',
    env: { NO_COLOR: '1', SCPCTL_EMULATOR_TOKEN: TOKEN },
  });
  const [url, adminKey] = await new Promise<[string, string]>((resolveUrl, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${buffered}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /^listening on (\S+)\nadmin key: (\S+)$/m.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolveUrl([match[1]!, match[2]!]);
      }
    });
    child.catch(reject);
    void child.then((r) => reject(new Error(`emulator exited: ${r.stderr}`)));
  });
  return {
    url,
    adminKey,
    stop: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}

export interface EmulatorSuite {
  emu: Emulator;
  /** A private config folder (and HOME) for the file's runs. */
  dir: string;
  /** Base URL, token and config folder for runs against `emu`. */
  env: Record<string, string | undefined>;
}

/**
 * The emulator's two ways of answering an error: a status and an error body, or HTTP 200 with the error in the
 * body (as the service does). The main end-to-end paths run against both: `describe.each(ERROR_STYLES)`.
 */
export const ERROR_STYLES = [
  { name: 'errors as HTTP statuses', args: [] },
  { name: 'errors as HTTP 200 (the service)', args: ['--http200-errors'] },
] as const satisfies ReadonlyArray<{ name: string; args: readonly string[] }>;

/** One emulator and one config folder for a test file: started before its tests, removed after them. */
export function useEmulator(args: readonly string[], ready: (suite: EmulatorSuite) => void): void {
  let suite: EmulatorSuite | undefined;
  beforeAll(async () => {
    const emu = await startEmulator(args);
    const dir = tempDir();
    suite = { emu, dir, env: envFor(emu, dir) };
    ready(suite);
  });
  afterAll(async () => {
    await suite?.emu.stop();
    if (suite) removeDir(suite.dir);
  });
}

export function tempDir(prefix = 'scpctl-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs `use` in a new temporary folder, removed afterwards however `use` ends. */
export async function withTempDir<T>(prefix: string, use: (dir: string) => Promise<T> | T): Promise<T> {
  const dir = tempDir(prefix);
  try {
    return await use(dir);
  } finally {
    removeDir(dir);
  }
}

export interface RunOptions extends Omit<Options, 'env'> {
  env?: Record<string, string | undefined>;
}

/** Environment for a run against `emu`: base URL, token and a private config folder; nothing inherited but PATH. */
export function envFor(emu: Emulator | undefined, configDir: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: configDir,
    SCPCTL_CONFIG_DIR: configDir,
    ...(emu ? { SCPCTL_BASE_URL: emu.url, SCPCTL_TOKEN: emu.token } : {}),
    ...extra,
  };
}

const encodedToken = encodeURIComponent(TOKEN);

/**
 * Variables that only a process of its own can honour: Node reads them at start-up or from process.env. The
 * proxy variables are not among them: the transport reads a run's own (api/proxy-env.ts, api/proxy-transport.ts).
 */
const PROCESS_VARIABLES = ['NODE_EXTRA_CA_CERTS', 'NODE_TLS_REJECT_UNAUTHORIZED', 'NODE_OPTIONS'];

export interface ScpctlRunOptions extends RunOptions {
  /** Run the built binary in a process of its own, even where running in this process would do. */
  real?: boolean;
}

/**
 * Runs scpctl with `args` and sweeps what it printed for the token, raw and URL-encoded: it must never appear
 * in stdout or stderr, whatever the command and however it ends.
 *
 * It runs in this process, through `main(argv, io)` with the test's environment and captured streams, unless
 * the run needs a process of its own: an input file, a time limit, the emulator, a
 * variable Node reads at start-up (NODE_EXTRA_CA_CERTS, NODE_TLS_REJECT_UNAUTHORIZED), or `real: true`. Those,
 * and every test of signals, terminals and installing, run the built binary (bin/scpctl.js).
 */
export async function scpctl(args: string[], options: ScpctlRunOptions = {}) {
  const { env, real, ...rest } = options;
  // No test touches the machine's OS credential store (a desktop's keyring would keep test tokens); the
  // tests of the store run scpctl in a kernel keyring of their own (credential-store.test.ts).
  const environment = { SCPCTL_TOKEN_STORE: 'file', ...(env ?? { PATH: process.env.PATH }) };
  const needsProcess =
    real || rest.inputFile !== undefined || rest.timeout !== undefined || args.includes('emulator') ||
    Object.keys(environment).some((name) => PROCESS_VARIABLES.includes(name));
  const result = needsProcess
    ? await runBinary(args, environment, rest)
    : await runInProcess(args, environment, rest.input, rest.cwd === undefined ? undefined : String(rest.cwd));
  const out = result.stdout + result.stderr;
  expect(out.includes(TOKEN), `token leaked in output of scpctl ${args.join(' ')}`).toBe(false);
  expect(out.includes(encodedToken), `URL-encoded token leaked in output of scpctl ${args.join(' ')}`).toBe(false);
  return result;
}

async function runBinary(args: string[], env: Record<string, string | undefined>, rest: Omit<RunOptions, 'env'>) {
  const result = await execa('node', [BIN, ...args], {
    reject: false,
    extendEnv: false,
    stdin: rest.input === undefined && rest.inputFile === undefined ? 'ignore' : 'pipe',
    stripFinalNewline: false,
    env,
    ...rest,
  } as Options);
  return { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), exitCode: result.exitCode ?? -1 };
}

/** A stream that keeps what is written to it, as a terminal-less pipe would. */
function capture(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** In-process runs under way, and whether one of them has moved the process's working directory. */
let runsUnderWay = 0;
let directoryMoved = false;

/**
 * One run through main(argv, io). A working directory is the process's own, so it is set for the run and put
 * back; a run with one therefore may not overlap any other run in this process (a concurrent test, a
 * Promise.all of runs): that is refused loudly rather than left to read another run's relative paths.
 */
async function runInProcess(args: string[], env: Record<string, string | undefined>, input: unknown, cwd?: string) {
  if (directoryMoved || (cwd !== undefined && runsUnderWay > 0)) {
    throw new Error(`scpctl ${args.join(' ')}: an in-process run with a working directory (cwd) overlaps another run; run them one after the other`);
  }
  const stdout = capture();
  const stderr = capture();
  const bytes = input === undefined ? [] : [Buffer.isBuffer(input) ? input : Buffer.from(String(input))];
  const stdin = Readable.from(bytes) as unknown as NodeJS.ReadStream;
  const home = process.cwd();
  runsUnderWay++;
  if (cwd !== undefined) {
    process.chdir(cwd);
    directoryMoved = true;
  }
  try {
    const exitCode = await main(args, { stdout: stdout.stream, stderr: stderr.stream, stdin, env: { ...env }, clock: testClock });
    return { stdout: stdout.text(), stderr: stderr.text(), exitCode };
  } finally {
    runsUnderWay--;
    if (cwd !== undefined) {
      process.chdir(home);
      directoryMoved = false;
    }
  }
}

/** Starts the binary without waiting, for tests that signal it mid-run. */
/** Logs each context in to its service (`--no-verify`), in the config folder of `env`; each login must succeed. */
export async function loginContexts(env: Record<string, string | undefined>, contexts: ReadonlyArray<readonly [name: string, service: string, token: string]>): Promise<void> {
  for (const [name, service, token] of contexts) {
    const r = await scpctl(['--context', name, 'login', '--base-url', service, '--with-token', '--no-verify'], { env, input: `${token}\n` });
    expect(r.exitCode, r.stderr).toBe(0);
  }
}

export function spawnScpctl(args: string[], options: RunOptions = {}): ResultPromise {
  const { env, ...rest } = options;
  return execa('node', [BIN, ...args], {
    reject: false,
    extendEnv: false,
    stdin: 'ignore',
    env: env ?? { PATH: process.env.PATH },
    ...rest,
  } as Options) as ResultPromise;
}

/** Whether a command is on the PATH (`script`, `tmux`): pseudo-terminal tests need one of them. */
export function has(tool: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder || '.', tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A word for sh, single-quoted. */
export const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * The built binary in a real pseudo-terminal (`script`), sized `cols` × 40: everything it wrote, escape codes
 * kept. `pipe` adds a shell tail (`| cat`). The output is swept for the token like every other run's.
 */
export async function inTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  { pipe = '', cols = 80, cwd }: { pipe?: string; cols?: number; cwd?: string } = {},
): Promise<{ output: string; exitCode: number }> {
  const command = `stty cols ${cols} rows 40; node ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}${pipe}`;
  const r = await execa('script', ['-qfec', command, '/dev/null'], {
    cwd,
    env: { TERM: 'xterm-256color', ...env } as Record<string, string>,
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    timeout: 20_000,
  });
  const output = String(r.stdout);
  expect(output.includes(TOKEN) || output.includes(encodedToken), 'token leaked in a terminal').toBe(false);
  return { output, exitCode: r.exitCode ?? -1 };
}

/**
 * The built binary in a pseudo-terminal (`script`, 80 × 40), typed into: each step waits until the screen so
 * far (escape codes stripped) matches `when`, then sends `keys` (raw bytes: "\x03" is Ctrl-C, "\x04" Ctrl-D,
 * "\r" Enter). The screen is swept for the token like every other run's output.
 */
export async function typeInTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  steps: Array<{ when: RegExp; keys: string }>,
  { cwd }: { cwd?: string } = {},
): Promise<{ screen: string; exitCode: number }> {
  const command = `stty cols 80 rows 40; exec node ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}`;
  const child = execa('script', ['-qfec', command, '/dev/null'], {
    cwd,
    env: { TERM: 'xterm-256color', ...env } as Record<string, string>,
    extendEnv: false,
    stdin: 'pipe',
    reject: false,
    timeout: 20_000,
  });
  let screen = '';
  child.stdout!.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  for (const step of steps) {
    await until(async () => step.when.test(stripEscapes(screen)), 10_000, () => `never saw ${step.when}:\n${screen}\n`);
    child.stdin!.write(step.keys);
  }
  const r = await child;
  child.stdin!.end();
  expect(screen.includes(TOKEN) || screen.includes(encodedToken), 'token shown on the terminal').toBe(false);
  return { screen: stripEscapes(screen), exitCode: r.exitCode ?? -1 };
}

/** The tmux pane `target` once it shows `pattern` (polled every 50 ms), or an error with what it showed. */
export async function pollPane(
  tmux: (...args: string[]) => Promise<{ stdout: unknown }>,
  target: string,
  pattern: RegExp,
  timeoutMs = 10_000,
  { escapes = false } = {},
): Promise<string> {
  let screen = '';
  return until(
    async () => {
      screen = String((await tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', target)).stdout);
      return pattern.test(screen) && screen;
    },
    timeoutMs,
    () => `pane never matched ${pattern}:\n${screen}\n`,
  );
}

/** Polls `probe` every 25 ms until it gives a value, or fails after `ms`. */
/** Waits until process `pid` holds `path` open: it is then waiting on that FIFO (Linux /proc). */
export function untilOpen(pid: number | undefined, path: string): Promise<true> {
  return until(async () => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
        } catch {
          return false;
        }
      }) || undefined;
    } catch {
      return undefined;
    }
  });
}

export async function until<T>(probe: () => Promise<T | undefined | false>, ms = 10_000, what: () => string = () => 'condition not met'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what()} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** NDJSON output as records. */
export function ndjson(text: string): Array<Record<string, unknown>> {
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Terminal output without its escape sequences (colours, cursor moves), as a reader sees the text. */
export function stripEscapes(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

/**
 * A folder holding an `scpctl` that runs the built binary, as an installed one would be: put it first on
 * PATH for scripts and shells that call `scpctl` by name. Returns the folder.
 */
export function scpctlOnPath(folder: string): string {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'scpctl'), `#!/bin/sh\nexec node ${JSON.stringify(BIN)} "$@"\n`, { mode: 0o755 });
  return folder;
}

/**
 * Whether this machine has a kernel keyring a test can use (test/e2e/keyring-session.py joins a session
 * keyring of its own): Linux with /proc/keys, and no sandbox that refuses keyctl. Where it has none, the
 * tests of the OS credential store are skipped, as the zsh and fish tests are where those shells are missing.
 */
export function kernelKeyringAvailable(): boolean {
  if (process.platform !== 'linux' || !existsSync('/proc/keys')) return false;
  return spawnSync('python3', [join(ROOT, 'test/e2e/keyring-session.py'), '--probe'], { stdio: 'ignore' }).status === 0;
}

/**
 * A private certificate authority and a server certificate it signed for `names` (127.0.0.1 and localhost), made by
 * openssl in `dir` (the TLS tests' emulators and fakes): the paths of the CA, the certificate and its key.
 */
export function privateCa(
  dir: string,
  { caName = 'scpctl test CA', subject = '/CN=127.0.0.1', names = 'IP:127.0.0.1,DNS:localhost', days = 2 } = {},
): { ca: string; cert: string; key: string } {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', String(days), '-subj', `/CN=${caName}`);
  ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', subject);
  writeFileSync(join(dir, 'san.ext'), `subjectAltName=${names}\n`);
  ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', String(days), '-extfile', 'san.ext');
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'server.pem'), key: join(dir, 'server.key') };
}
