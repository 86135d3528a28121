// Shell completion and help, through the built binary: the bash script is sourced in a real bash and its
// function called as bash calls it (and once through readline in tmux); zsh and fish scripts are checked for
// every command (and for syntax when those shells are installed). Every command's --help is walked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { removeDir, scpctl, tempDir, pollPane, has } from './harness.js';

let dir: string;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  dir = tempDir();
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await scpctl(['completion', shell]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    scripts[shell] = join(dir, `scpctl.${shell}`);
    writeFileSync(scripts[shell]!, r.stdout);
  }
  writeFileSync(join(dir, 'allowlist.txt'), 'a-bucket\n');
});
afterAll(() => removeDir(dir));

/** Sources the bash script, sets COMP_WORDS/COMP_CWORD to `words` (the last is the word being completed), calls _scpctl. */
async function complete(...words: string[]): Promise<string[]> {
  const driver = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _scpctl; printf "%s\\n" "${COMPREPLY[@]}"';
  const r = await execa('bash', ['--norc', '--noprofile', '-c', driver, 'bash', scripts.bash!, ...words], { cwd: dir, reject: false });
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return r.stdout.split('\n').filter((line) => line !== '');
}

describe('bash', () => {
  it('registers _scpctl for scpctl', async () => {
    const r = await execa('bash', ['--norc', '--noprofile', '-c', 'source "$1"; complete -p scpctl', 'bash', scripts.bash!]);
    expect(r.stdout.trim()).toBe('complete -F _scpctl scpctl');
  });

  it('completes commands and subcommands', async () => {
    expect(await complete('scpctl', '')).toEqual(['buckets', 'apply', 'report', 'login', 'logout', 'config', 'doctor', 'emulator', 'completion', 'help']);
    expect(await complete('scpctl', 'buckets', 'ap')).toEqual(['append']);
    expect(await complete('scpctl', 'buckets', '')).toEqual(['append', 'delete', 'replace', 'modify', 'view', 'sync', 'history', 'restore', 'help']);
    expect(await complete('scpctl', 'config', 'get')).toEqual(['get', 'get-contexts']);
    expect(await complete('scpctl', 'help', 'bu')).toEqual(['buckets']);
  });

  it('completes the flags of the command at hand, global flags included', async () => {
    expect(await complete('scpctl', 'report', '--gr')).toEqual(['--groupby']);
    const view = await complete('scpctl', 'buckets', 'view', 'finance', '--');
    expect(view).toEqual(expect.arrayContaining(['--wait', '--json', '--base-url', '--context', '--no-color', '--help']));
    expect(view).not.toContain('--groupby');
    expect(await complete('scpctl', 'buckets', 'sync', 'finance', '--d')).toEqual(['--dry-run']);
  });

  it('completes enumerated values: --type, --groupby, --period, -o, shells, config keys', async () => {
    expect(await complete('scpctl', 'report', '--type', 'al')).toEqual(['alert']);
    expect(await complete('scpctl', 'report', '--type', '')).toEqual(['application', 'connection', 'alert', 'network']);
    expect(await complete('scpctl', 'report', '--groupby', '')).toEqual(['application', 'user', 'device', 'activity']);
    expect(await complete('scpctl', 'report', '--period', '')).toEqual(expect.arrayContaining(['1h', '24h', '7d', '30d']));
    expect(await complete('scpctl', 'buckets', 'view', 'finance', '-o', '')).toEqual(['table', 'text', 'json']);
    expect(await complete('scpctl', 'report', '-o', '')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(await complete('scpctl', 'report', '--output', 'n')).toEqual(['ndjson']);
    expect(await complete('scpctl', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(await complete('scpctl', 'config', 'set', '')).toEqual(['baseUrl', 'token', 'timeout', 'retries', 'caCert', 'historyKeep', 'tokenStore', 'tokenCommand', 'base-url', 'ca-cert', 'history-keep', 'token-store', 'token-command']);
    expect(await complete('scpctl', 'config', 'get', 'ca')).toEqual(['caCert', 'ca-cert']);
  });

  it('handles --flag=value, whether or not = breaks words', async () => {
    expect(await complete('scpctl', 'report', '--type=al')).toEqual(['--type=alert']);
    expect(await complete('scpctl', 'report', '--type', '=', 'al')).toEqual(['alert']);
    expect(await complete('scpctl', 'report', '--groupby', '=')).toEqual(['application', 'user', 'device', 'activity']);
  });

  it('skips flag values when finding the command, and completes file names for file flags', async () => {
    expect(await complete('scpctl', '--context', 'buckets', 'buckets', 'v')).toEqual(['view']);
    expect(await complete('scpctl', 'report', '--type', 'alert', '--groupby', 'user', '--li')).toEqual(['--limit']);
    expect(await complete('scpctl', 'buckets', 'append', 'finance', '-f', 'allow')).toEqual(['allowlist.txt']);
    expect(await complete('scpctl', 'buckets', 'view', 'finance', '--ca-cert', join(dir, 'allow'))).toEqual([join(dir, 'allowlist.txt')]);
    // A free value (a profile, a URL) gets no suggestions rather than wrong ones.
    expect(await complete('scpctl', 'buckets', 'view', '')).toEqual([]);
    expect(await complete('scpctl', '--base-url', '')).toEqual([]);
  });

  it.skipIf(!has('tmux'))('works through readline in an interactive bash (tmux)', async () => {
    // A private server on a socket in the test's folder: nothing is left behind, nothing else is touched.
    const session = `scpctl-completion-${process.pid}`;
    const tmux = (...args: string[]) => execa('tmux', ['-S', join(dir, 'tmux.sock'), ...args], { reject: false });
    const rc = join(dir, 'bashrc');
    writeFileSync(rc, `PS1='$ '\nsource ${JSON.stringify(scripts.bash)}\n`);
    try {
      await tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '20', `env -i PATH=${process.env.PATH} TERM=xterm bash --noprofile --rcfile ${rc} -i`);
      await pollPane(tmux, session, /^\$/m);
      await tmux('send-keys', '-t', session, 'scpctl buckets ap', 'Tab');
      await pollPane(tmux, session, /^\$ scpctl buckets append$/m); // capture-pane drops trailing spaces
      await tmux('send-keys', '-t', session, 'C-u', 'scpctl report --type=al', 'Tab');
      await pollPane(tmux, session, /^\$ scpctl report --type=alert$/m);
    } finally {
      await tmux('kill-session', '-t', session);
      await tmux('kill-server');
    }
  });
});


describe('zsh and fish', () => {
  const program = buildProgram();
  const names = (command: Command): string[] => command.commands.flatMap((c) => [c.name(), ...names(c)]);

  it.each(['zsh', 'fish'])('the %s script names every command', async (shell) => {
    const r = await scpctl(['completion', shell]);
    for (const name of names(program)) expect(r.stdout, name).toContain(name);
    if (shell === 'zsh') {
      expect(r.stdout).toMatch(/^#compdef scpctl\n/);
      expect(r.stdout).toContain(`'--type=[event type]:type:(application connection alert network)'`);
      expect(r.stdout).toContain(`{-o+,--output=}`);
    } else {
      expect(r.stdout).toContain(`-l groupby -x -a 'application user device activity'`);
      expect(r.stdout).toContain(`complete -c scpctl -n '__scpctl_at \\'\\' 0' -a 'buckets'`);
    }
  });

  for (const shell of ['zsh', 'fish']) {
    it.skipIf(!has(shell))(`the ${shell} script parses`, async () => {
      const r = await execa(shell, ['-n', scripts[shell]!], { reject: false });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
    });
  }

  it('refuses a shell it does not know', async () => {
    const r = await scpctl(['completion', 'powershell']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Allowed choices are bash, zsh, fish");
    expect(r.stdout).toBe('');
  });
});

describe('help', () => {
  const program = buildProgram();
  // (The hidden `help` is the reader of `help CMD SUBCMD` lines, cli.ts: its help is the program's.)
  const paths = (command: Command, path: string[] = []): string[][] =>
    command.commands.filter((c) => c.name() !== 'help').flatMap((c) => [[...path, c.name()], ...paths(c, [...path, c.name()])]);
  const all = [[], ...paths(program)];

  it('every command has a description, its flags and at least two examples', async () => {
    const results = await Promise.all(all.map(async (path) => ({ path, r: await scpctl([...path, '--help']) })));
    for (const { path, r } of results) {
      const what = `scpctl ${path.join(' ')} --help`;
      expect(r.exitCode, what).toBe(0);
      expect(r.stdout, what).toMatch(new RegExp(`^Usage: scpctl ${path.map((p) => `${p} `).join('')}`));
      const command = path.reduce((c, name) => c.commands.find((s) => s.name() === name)!, program);
      expect(command.description().length, what).toBeGreaterThan(10);
      expect(r.stdout, what).toContain(command.description().slice(0, 40));
      // Example lines run scpctl: alone, in a pipe, after variables (`echo "$TOKEN" | scpctl login --with-token`).
      expect(r.stdout.match(/^ {2}\$ .*\bscpctl /gm)?.length ?? 0, what).toBeGreaterThanOrEqual(2);
      for (const option of command.options) expect(r.stdout, `${what}: ${option.long}`).toContain(option.long);
    }
  });

  it('global flags name their environment variables and defaults; emulator flags their defaults', async () => {
    const view = await scpctl(['buckets', 'view', '--help']);
    view.stdout = view.stdout.replace(/\s+/g, ' '); // commander wraps long descriptions
    for (const text of ['env SCPCTL_BASE_URL', 'env SCPCTL_TOKEN_FILE', 'env SCPCTL_CONTEXT', 'env SCPCTL_TIMEOUT', 'default 30', 'env SCPCTL_CA_CERT', 'env NO_COLOR', 'default 120 s']) {
      expect(view.stdout).toContain(text);
    }
    const emulator = await scpctl(['emulator', '--help']);
    expect(emulator.stdout).toContain('(default: "127.0.0.1")');
    expect(emulator.stdout).toContain('(default: "8787")');
    const report = await scpctl(['report', '--help']);
    expect(report.stdout.replace(/\s+/g, ' ')).toContain('choices: "application", "connection", "alert", "network"');
  });

  it('scpctl help and scpctl --help list every command in a group and exit 0', async () => {
    for (const args of [['help'], ['--help'], []]) {
      const r = await scpctl(args);
      expect(r.exitCode, args.join(' ')).toBe(0);
      for (const heading of ['Bucket lists:', 'Reports:', 'Setup:', 'Testing:']) expect(r.stdout).toContain(`\n${heading}\n`);
      expect(r.stdout, 'a command outside every group').not.toMatch(/^Commands:$/m);
      for (const command of program.commands.filter((c) => c.name() !== '__complete')) expect(r.stdout).toMatch(new RegExp(`^ {2}${command.name()}\\b`, 'm'));
      expect(r.stdout).not.toContain('__complete');
    }
    const sub = await scpctl(['help', 'buckets']);
    expect(sub.exitCode).toBe(0);
    expect(sub.stdout).toContain('Usage: scpctl buckets');
    const leaf = await scpctl(['buckets', 'help', 'view']);
    expect(leaf.exitCode).toBe(0);
    expect(leaf.stdout).toContain('Usage: scpctl buckets view');
  });

  it('an unknown command suggests the nearest one and exits 2', async () => {
    for (const [args, suggestion] of [
      [['bukets'], 'buckets'],
      [['docter'], 'doctor'],
      [['config', 'lst'], 'list'],
      [['buckets', 'vew', 'finance'], 'view'],
    ] as const) {
      const r = await scpctl([...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^scpctl: unknown command/);
      expect(r.stderr).toContain(`Did you mean ${suggestion}?`);
    }
  });

  it('--version prints the version alone', async () => {
    const r = await scpctl(['--version']);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
