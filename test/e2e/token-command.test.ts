// A context's tokenCommand (contract section 16): argv words from the config store, run without a shell; the
// first stdout line is the token; a failing, silent, missing or slow command is exit 3 naming it, with its
// stderr masked; every token it prints is known to the mask. Runs in this process (the harness), each
// command a small child (printf, sh); the timeout is cut short through the internal
// SCPCTL_TOKEN_COMMAND_TIMEOUT_MS.
import { describe, expect, it } from 'vitest';
import { chmodSync, closeSync, existsSync, openSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '../../src/library/index.js';
import { ERROR_STYLES, TOKEN, envFor, has, inTerminal, scpctl, useEmulator, type Emulator } from './harness.js';

/** Whether a terminal controls this process (/dev/tty opens), fds 0-2 redirected or not. */
function controlledByTerminal(): boolean {
  try {
    closeSync(openSync('/dev/tty', 'r'));
    return true;
  } catch {
    return false;
  }
}

describe.each(ERROR_STYLES)('tokenCommand, $name', ({ args }) => {
  // What does not depend on how the service answers errors runs once.
  const once = it.runIf(args.length === 0);
  let emu: Emulator;
  let dir: string;
  useEmulator(['--profile', 'finance', ...args], (suite) => ({ emu, dir } = suite));
  const env = (extra: Record<string, string | undefined> = {}) => envFor(emu, dir, { SCPCTL_TOKEN: undefined, SCPCTL_TOKEN_COMMAND_TIMEOUT_MS: '300', ...extra });
  const run = (argv: string[], extra?: Record<string, string | undefined>) => scpctl(argv, { env: env(extra), cwd: dir });
  const setCommand = async (argv: string[]) => {
    const set = await run(['config', 'set', 'tokenCommand', JSON.stringify(argv)]);
    expect(set.exitCode, set.stderr).toBe(0);
  };

  once('the first stdout line is the token: the command works, config list shows the command (sanitised) as the source', async () => {
    await setCommand(['printf', '%s\\n\\x1b[31msecond line\\n', TOKEN]);
    const view = await run(['buckets', 'view', 'finance']);
    expect(view.exitCode, view.stderr).toBe(0);
    const list = await run(['config', 'list']);
    expect(list.stdout).toMatch(/^token +tok_\*\*\* +tokenCommand \(context default\)$/m);
    expect(list.stdout).toContain('tokenCommand  ["printf","%s\\\\n\\\\x1b[31msecond line\\\\n","***"]');
    // The columns are padded after the mask: the source column does not move out on the tokenCommand line.
    const column = (key: string, source: string) => list.stdout.split('\n').find((line) => line.startsWith(`${key} `))!.indexOf(source);
    expect(column('tokenCommand', 'config (context default)')).toBe(column('timeout', 'default'));
    // `config get token` says where it comes from, as for the OS store, not 'not set ... Run: scpctl login'.
    const get = await run(['config', 'get', 'token']);
    expect([get.exitCode, get.stdout]).toEqual([0, 'tok_*** (printed by the tokenCommand)\n']);
    const other = await run(['--context', 'elsewhere', 'config', 'get', 'token']);
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toContain('hint: Run: scpctl --context elsewhere login');
    // The library resolves the same way, with no option for it.
    const scp = await connect({ env: env() });
    expect((await scp.buckets.view('finance')).size).toBeGreaterThanOrEqual(0);
    await scp.close();
    await setCommand(['false']);
    await expect(connect({ env: env() })).rejects.toMatchObject({
      exitCode: 3,
      kind: 'auth',
      message: 'the tokenCommand ["false"] of context default exited with code 1',
    });
  });

  once('every line it prints is known to the mask before input is read: a list naming the token is refused, not shown (exit 2)', async () => {
    await setCommand(['sh', '-c', `echo ${TOKEN}; echo other-secret-line-77; echo ${TOKEN} >&2`]);
    writeFileSync(join(dir, 'list.txt'), `alpha-data\nother-secret-line-77\n`);
    const r = await run(['buckets', 'append', 'finance', '-f', 'list.txt']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).not.toContain('other-secret-line-77');
    expect(r.stderr).toContain('list.txt:2: a name that looks like the API token (not shown)');
  });

  it('a failing command is exit 3 naming it, its stderr masked and cut; a rejected token names it as the source', async () => {
    await setCommand(['sh', '-c', `echo ${TOKEN}; echo "vault locked for ${TOKEN}" >&2; exit 4`]);
    const failed = await run(['buckets', 'view', 'finance']);
    expect(failed.exitCode, failed.stderr).toBe(3);
    expect(failed.stderr).toMatch(/^scpctl: the tokenCommand \["sh","-c","echo \*\*\*; .*"\] of context default exited with code 4: vault locked for \*\*\*\n/);

    // Echoed on stderr alone, it is one long word: masked all the same.
    await setCommand(['sh', '-c', `echo "helper failed:" >&2; echo ${TOKEN} >&2; exit 1`]);
    const echoed = await run(['buckets', 'view', 'finance']);
    expect(echoed.exitCode).toBe(3);
    expect(echoed.stderr).toContain('exited with code 1: helper failed: | ***\n');

    await setCommand(['printf', 'wrong-token-123456\\n']);
    const rejected = await run(['buckets', 'view', 'finance']);
    expect(rejected.exitCode, rejected.stderr).toBe(3);
    // What it printed is a secret, wherever it shows: in the command's own words too.
    expect(rejected.stderr).toContain('(the token from the tokenCommand ["printf","***\\\\n"] of context default)');
  });

  once('a command that prints nothing, is not found, or outlives the timeout is exit 3 naming it', async () => {
    await setCommand(['true']);
    expect((await run(['buckets', 'view', 'finance'])).stderr).toContain('scpctl: the tokenCommand ["true"] of context default printed no token on its first stdout line');
    await setCommand(['scpctl-no-such-helper', 'get']);
    const missing = await run(['buckets', 'view', 'finance']);
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toContain('scpctl: the tokenCommand ["scpctl-no-such-helper","get"] of context default could not be run (no such command)');
    await setCommand(['sleep', '30']);
    const started = performance.now();
    const slow = await run(['buckets', 'view', 'finance']);
    expect(slow.exitCode).toBe(3);
    expect(slow.stderr).toContain('scpctl: the tokenCommand ["sleep","30"] of context default did not finish within 0.3 s (stopped)');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  // Run from a terminal (npm test typed at one), the helper shares it and is not grouped: its children outlive it there.
  it.skipIf(args.length > 0 || controlledByTerminal())('a command that outlives the timeout is stopped with every process it started (a helper script that runs another)', async () => {
    // A helper is often a script that runs the real tool: ending the script alone left that tool running,
    // holding the helper's stdout, after scpctl had given up on it.
    const pidFile = join(dir, 'grandchild.pid');
    await setCommand(['sh', '-c', `sleep 30 & echo $! > ${pidFile}; wait`]);
    const slow = await run(['buckets', 'view', 'finance']);
    expect(slow.exitCode).toBe(3);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // Killed, it is a zombie until whatever adopted it reaps it: that counts as ended (Linux's /proc says which).
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
      } catch {
        return false;
      }
      return !existsSync(`/proc/${pid}/stat`) || !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    // The verdict before the clean-up: a SIGKILL of ours makes it a zombie, which alive() counts as ended.
    const ended = !alive();
    if (!ended) process.kill(pid, 'SIGKILL');
    expect(ended ? 'ended' : 'still running').toBe('ended');
  });

  it.skipIf(args.length > 0 || !has('script') || !has('ps'))('at a terminal it runs in the terminal\'s foreground group, so a helper may ask for a passphrase there', async () => {
    // Started in a group of its own, a helper that reads the terminal would be stopped by the kernel (SIGTTIN)
    // and time out; the grouping that stops a helper's own children after a timeout is for runs off a terminal.
    const probe = 'test "$(ps -o tpgid= -p $$ | tr -d " ")" = "$(ps -o pgid= -p $$ | tr -d " ")" && echo ' + TOKEN;
    await setCommand(['sh', '-c', probe]);
    const r = await inTerminal(['buckets', 'view', 'finance'], env());
    expect(r.exitCode, r.output).toBe(0);
  });

  it.skipIf(args.length > 0 || !has('script'))('with its input and output redirected at a terminal, a helper still reaches the terminal (/dev/tty) to ask for a passphrase', async () => {
    // `scpctl … <names.txt >out 2>err` typed at a terminal: none of fds 0-2 is one, yet gpg's pinentry or `op`
    // asks on /dev/tty. A session of its own (Node's detached is setsid) has no controlling terminal: ENXIO.
    writeFileSync(join(dir, 'token-file'), `${TOKEN}\n`);
    await setCommand(['sh', '-c', `if : </dev/tty; then cat ${join(dir, 'token-file')}; else echo "no terminal" >&2; exit 1; fi`]);
    const out = join(dir, 'redirected-out');
    const r = await inTerminal(['buckets', 'view', 'finance'], env(), { pipe: ` </dev/null >${out} 2>&1` });
    const said = readFileSync(out, 'utf8');
    expect(said).not.toContain(TOKEN);
    expect(r.exitCode, said).toBe(0);
    expect(said).not.toContain('no terminal');
  });

  once('a bare program name is found in PATH alone, never in the folder scpctl runs in (a checkout can hold a program of that name)', async () => {
    // Windows's spawn looks in the current folder before PATH; on POSIX an empty PATH entry means it.
    const checkout = join(dir, 'checkout');
    mkdirSync(checkout, { recursive: true });
    const planted = join(dir, 'planted-ran');
    writeFileSync(join(checkout, 'scp-helper'), `#!/bin/sh\ntouch ${planted}\necho ${TOKEN}\n`);
    chmodSync(join(checkout, 'scp-helper'), 0o755);
    await setCommand(['scp-helper', 'get']);
    const r = await scpctl(['buckets', 'view', 'finance'], { env: env({ PATH: `${process.env.PATH}:` }), cwd: checkout });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('scpctl: the tokenCommand ["scp-helper","get"] of context default could not be run (no such command)');
    expect(existsSync(planted)).toBe(false);
  });

  once('only the config store sets it: anything but a JSON array of words is exit 2; a flag or variable comes first and the command is not run', async () => {
    for (const bad of ['pass show scp/prod', '[]', '["pass", 1]', '{"argv":["pass"]}', '[""]']) {
      const r = await run(['config', 'set', 'tokenCommand', bad]);
      expect(r.exitCode, bad).toBe(2);
      expect(r.stderr).toContain('tokenCommand: not a JSON array of argv words');
    }
    const marker = join(dir, 'ran');
    await setCommand(['sh', '-c', `touch ${marker}; echo ${TOKEN}`]);
    expect((await run(['buckets', 'view', 'finance'], { SCPCTL_TOKEN: TOKEN })).exitCode).toBe(0);
    // Nor do the commands that never need the token: a hanging one can be fixed with `config set`.
    for (const argv of [['config', 'set', 'timeout', '60'], ['config', 'path'], ['config', 'get-contexts'], ['logout']]) expect((await run(argv)).exitCode).toBe(0);
    expect(existsSync(marker)).toBe(false);
    // A manifest from a pull request cannot bring one: it is not a key a manifest has, and nothing runs it.
    const other = join(dir, 'ran-from-manifest');
    writeFileSync(join(dir, 'scpctl.yaml'), `tokenCommand: ["touch", "${other}"]\nprofiles:\n  finance:\n    buckets: [alpha-data]\n`);
    await run(['apply', '-f', 'scpctl.yaml', '--dry-run'], { SCPCTL_TOKEN: TOKEN });
    expect(existsSync(other)).toBe(false);
  });

  once('--contexts runs each context\'s own tokenCommand, not the selected context\'s', async () => {
    const marker = join(dir, 'ran-default');
    await setCommand(['sh', '-c', `touch ${marker}; echo ${TOKEN}`]);
    for (const [key, value] of [['baseUrl', emu.url], ['tokenCommand', JSON.stringify(['printf', '%s\\n', TOKEN])]]) {
      expect((await run(['config', 'set', key, value, '--context', 'second'], { SCPCTL_BASE_URL: undefined })).exitCode).toBe(0);
    }
    const r = await run(['buckets', 'view', 'finance', '--contexts', 'second', '-o', 'json'], { SCPCTL_BASE_URL: undefined });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ context: 'second', profile: 'finance' }]);
    // The selected context (default) is not one of them: its command never ran.
    expect(existsSync(marker)).toBe(false);
    expect((await run(['config', 'delete-context', 'second'])).exitCode).toBe(0);
  });

  once('a config file others can write never runs its tokenCommand (exit 2)', async () => {
    const marker = join(dir, 'ran-writable');
    await setCommand(['sh', '-c', `touch ${marker}; echo ${TOKEN}`]);
    chmodSync(join(dir, 'config.json'), 0o666);
    const r = await run(['buckets', 'view', 'finance']);
    chmodSync(join(dir, 'config.json'), 0o600);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('refusing to run a tokenCommand from');
    expect(existsSync(marker)).toBe(false);
    // Nor one in a folder others can write: they could swap in a file of their own between its read and its check.
    chmodSync(dir, 0o777);
    const swapped = await run(['buckets', 'view', 'finance']);
    chmodSync(dir, 0o700);
    expect(swapped.exitCode, swapped.stderr).toBe(2);
    expect(swapped.stderr).toContain(`refusing to run a tokenCommand from ${join(dir, 'config.json')}: others can write its folder ${dir}`);
    expect(existsSync(marker)).toBe(false);
  });
});
