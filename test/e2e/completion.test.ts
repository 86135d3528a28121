// Shell completion and help, through the built binary: the bash script is sourced in a real bash and its
// function called as bash calls it, asking the scpctl on PATH (and once through readline in tmux); the zsh and
// fish scripts are checked for syntax when those shells are installed. What a Tab offers is tested in-process
// (test/unit/completion.test.ts): each Tab here is a node start. Every command's --help is walked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { removeDir, scpctl, scpctlOnPath, tempDir, pollPane, has } from './harness.js';

let dir: string;
let path: string;
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
  path = `${scpctlOnPath(join(dir, 'bin'))}:${process.env.PATH}`;
});
afterAll(() => removeDir(dir));

/** Sources the bash script, sets COMP_WORDS/COMP_CWORD to `words` (the last is the word being completed), calls _scpctl. */
async function complete(...words: string[]): Promise<string[]> {
  const driver = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _scpctl; printf "%s\\n" "${COMPREPLY[@]}"';
  const r = await execa('bash', ['--norc', '--noprofile', '-c', driver, 'bash', scripts.bash!, ...words], { cwd: dir, reject: false, env: { PATH: path, SCPCTL_CONFIG_DIR: dir } });
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return r.stdout.split('\n').filter((line) => line !== '');
}

describe('bash', () => {
  it('registers _scpctl for scpctl', async () => {
    const r = await execa('bash', ['--norc', '--noprofile', '-c', 'source "$1"; complete -p scpctl', 'bash', scripts.bash!]);
    expect(r.stdout.trim()).toBe('complete -F _scpctl scpctl');
  });

  it('offers what scpctl __complete answers, without the descriptions', async () => {
    expect(await complete('scpctl', '')).toEqual(['buckets', 'apply', 'report', 'login', 'logout', 'config', 'doctor', 'emulator', 'completion', 'help']);
    expect(await complete('scpctl', 'report', '--type=al')).toEqual(['--type=alert']);
  });

  it('completes file names for file flags, by the shell', async () => {
    expect(await complete('scpctl', 'buckets', 'append', 'finance', '-f', 'allow')).toEqual(['allowlist.txt']);
    expect(await complete('scpctl', 'buckets', 'view', 'finance', '--ca-cert', join(dir, 'allow'))).toEqual([join(dir, 'allowlist.txt')]);
  });

  it.skipIf(!has('tmux'))('works through readline in an interactive bash (tmux)', async () => {
    // A private server on a socket in the test's folder: nothing is left behind, nothing else is touched.
    const session = `scpctl-completion-${process.pid}`;
    const tmux = (...args: string[]) => execa('tmux', ['-S', join(dir, 'tmux.sock'), ...args], { reject: false });
    const rc = join(dir, 'bashrc');
    writeFileSync(rc, `PS1='$ '\nsource ${JSON.stringify(scripts.bash)}\n`);
    try {
      await tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '20', `env -i PATH=${path} TERM=xterm bash --noprofile --rcfile ${rc} -i`);
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
  for (const shell of ['zsh', 'fish']) {
    it.skipIf(!has(shell))(`the ${shell} script parses`, async () => {
      const r = await execa(shell, ['-n', scripts[shell]!], { reject: false });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
    });
  }

  it.skipIf(!has('fish'))('fish offers what scpctl __complete answers, with the descriptions', async () => {
    const asked = `source ${JSON.stringify(scripts.fish)}; complete -C 'scpctl report --gr'; complete -C 'scpctl report --type=al'`;
    const r = await execa('fish', ['--no-config', '-c', asked], { env: { PATH: path, SCPCTL_CONFIG_DIR: dir }, reject: false });
    expect(r.stdout).toBe('--groupby\tgroup by\n--type=alert');
  });

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
