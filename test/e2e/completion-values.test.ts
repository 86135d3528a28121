// Completion and the parsers from one source: every value a Tab offers (declared choices, each command's -o
// formats, the periods, the config keys) is run through the real CLI at the command it is offered for, and
// must be accepted there. The hidden `__complete` answers contexts and profiles seen before too.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { completeWords } from '../../src/commands/completion/candidates.js';
import { scpctl, useEmulator, type Emulator, pollPane, has, scpctlOnPath, tempDir, removeDir } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance=a-bucket', '--profile', 'legal=l-bucket'], (suite) => ({ emu, dir, env } = suite));

/** The refusals of the parsers: commander's choices, ctx.outputFormat, parsePeriod, normalizeConfigKey, report's oneOf. */
const REFUSED = /Allowed choices|is not a format of this command|is not a report period|unknown config key|is not one of/;

/** A command line that runs at `path` without changing anything, to which the value under test is added. */
function baseArgs(path: string, list: string): string[] | undefined {
  switch (path) {
    case 'buckets history':
      return ['buckets', 'history', 'finance'];
    case 'buckets restore':
      // No version is kept, so this ends in a usage error after the -o check: only a refusal of -o counts.
      return ['buckets', 'restore', 'finance', '--to', 'no-such-version', '--dry-run'];
    case 'apply':
      return ['apply', '-f', list.replace(/list\.txt$/, 'scpctl.yaml'), '--dry-run'];
    case 'buckets view':
      return ['buckets', 'view', 'finance'];
    case 'buckets append':
    case 'buckets delete':
    case 'buckets replace':
      return [...path.split(' '), 'finance', 'x-bucket', '--dry-run'];
    case 'buckets modify':
      return ['buckets', 'modify', 'finance', '--add', 'x-bucket', '--dry-run'];
    case 'buckets sync':
      return ['buckets', 'sync', 'finance', '-f', list, '--dry-run'];
    case 'report':
      return ['report', '--type', 'application', '--limit', '1'];
    case 'config list':
    case 'config get-contexts':
    case 'doctor':
      return path.split(' ');
    // No token on stdin, none stored: exit 3 before any store is chosen; a refused value would be exit 2 first.
    case 'login':
      return ['login', '--with-token', '--no-verify'];
    case 'config migrate-token':
      return ['config', 'migrate-token'];
    default:
      return undefined;
  }
}

/** Every visible command with its words, the help commands left out (commander's own, listing the subcommands it knows). */
function commands(command: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  const subcommands = command.createHelp().visibleCommands(command).filter((c) => command.commands.includes(c));
  return [{ path, command }, ...subcommands.flatMap((c) => commands(c, [...path, c.name()]))];
}

describe('every completable value is accepted by the parser of its command', () => {
  const program = buildProgram();
  const cases: Array<{ what: string; args: string[]; strict: boolean }> = [];
  let list: string;
  // Contexts and profiles seen are not values of the parsers: tested below.
  const dynamic = ['--context', '--contexts', 'profile', 'context'];
  const values = (words: string[], typed = ''): string[] => {
    const [kind, ...lines] = completeWords(program, [...words, typed], { SCPCTL_CONFIG_DIR: join(dir, 'no-config') });
    return kind === 'words' ? lines.map((line) => line.slice(typed.length)) : [];
  };
  /** The flags that take a value at a command: its own and its ancestors'. */
  const valueFlags = (command: Command | null): string[] =>
    command ? [...command.options.filter((o) => o.long && (o.required || o.optional)).map((o) => o.long!), ...valueFlags(command.parent)] : [];

  beforeAll(() => {
    list = join(dir, 'list.txt');
    writeFileSync(list, 'a-bucket\n');
    writeFileSync(join(dir, 'scpctl.yaml'), 'profiles:\n  finance:\n    buckets: [a-bucket]\n');
    for (const { path: words, command } of commands(program)) {
      const path = words.join(' ');
      for (const flag of new Set(valueFlags(command).filter((f) => !dynamic.includes(f)))) {
        for (const value of values(words, `${flag}=`)) {
          const base = baseArgs(path, list);
          expect(base, `completion offers ${flag} values at "${path}", which the walk has no command line for`).toBeDefined();
          cases.push({ what: `${path} ${flag} ${value}`, args: [...base!, flag, value], strict: path !== 'buckets restore' });
        }
      }
      command.registeredArguments.forEach((arg, i) => {
        if (dynamic.includes(arg.name())) return;
        for (const value of values([...words, ...Array<string>(i).fill('x')])) {
          const args = [...words, ...Array<string>(i).fill('x'), value];
          // `config set KEY` without a value is refused for the missing value, not the key: only the key's refusal counts.
          cases.push({ what: `${path} <${arg.name()}> ${value}`, args, strict: path !== 'config set' });
        }
      });
    }
  });

  it('walks them all', { timeout: 120_000 }, async () => {
    expect(cases.length).toBeGreaterThan(50);
    const failures: string[] = [];
    const queue = [...cases];
    const worker = async (): Promise<void> => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const r = await scpctl(c.args, { env });
        if (REFUSED.test(r.stderr) || (c.strict && r.exitCode === 2)) failures.push(`${c.what}: exit ${r.exitCode}: ${r.stderr.split('\n')[0]}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    expect(failures).toEqual([]);
  });

  it('and the walk can fail: a value outside the completion is refused the same way', async () => {
    const r = await scpctl(['report', '--type', 'application', '-o', 'text'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(REFUSED);
    expect(values(['report', '-o'])).not.toContain('text');
  });
});

describe('dynamic values: scpctl __complete and the bash script', () => {
  let shims: string;
  let script: string;
  let completionEnv: Record<string, string | undefined>;
  // A config folder of its own: the walk above has viewed profiles too.
  let dyn: Record<string, string | undefined>;
  let cfg: string;

  beforeAll(async () => {
    // `scpctl` on PATH, as an installed one would be, for the script to ask.
    shims = scpctlOnPath(join(dir, 'bin'));
    cfg = join(dir, 'dynamic');
    dyn = { ...env, SCPCTL_CONFIG_DIR: cfg, HOME: cfg };
    completionEnv = { ...dyn, PATH: `${shims}:${process.env.PATH}` };
    script = join(dir, 'scpctl.bash');
    writeFileSync(script, (await scpctl(['completion', 'bash'], { env: dyn })).stdout);
    expect((await scpctl(['--context', 'tenant-b', 'config', 'set', 'timeout', '5'], { env: dyn })).exitCode).toBe(0);
    expect((await scpctl(['--context', 'tenant-c', 'config', 'set', 'timeout', '5'], { env: dyn })).exitCode).toBe(0);
  });

  async function complete(...words: string[]): Promise<string[]> {
    const driver = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _scpctl; printf "%s\\n" "${COMPREPLY[@]}"';
    const r = await execa('bash', ['--norc', '--noprofile', '-c', driver, 'bash', script, ...words], {
      env: completionEnv as Record<string, string>,
      extendEnv: false,
      reject: false,
    });
    expect(r.stderr).toBe('');
    return String(r.stdout).split('\n').filter((line) => line !== '');
  }

  /** What `scpctl __complete` (in-process) offers after `words`, descriptions left out. */
  async function offered(...words: string[]): Promise<string[]> {
    const r = await scpctl(['__complete', '--', ...words], { env: dyn });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    const [kind, ...lines] = r.stdout.split('\n').filter((line) => line !== '');
    expect(kind).toBe('words');
    return lines.map((line) => line.split('\t')[0]!);
  }

  it('context names: for --context, use-context, delete-context and rename-context', async () => {
    expect(await offered('--context', '')).toEqual(['default', 'tenant-b', 'tenant-c']);
    expect(await offered('--context', 'tenant-')).toEqual(['tenant-b', 'tenant-c']);
    expect(await complete('scpctl', 'config', 'use-context', 'ten')).toEqual(['tenant-b', 'tenant-c']);
    expect(await offered('config', 'delete-context', '')).toEqual(['default', 'tenant-b', 'tenant-c']);
    expect(await offered('config', 'rename-context', 'tenant-b', '')).toEqual([]);
    expect(await offered('buckets', 'view', 'finance', '--contexts', 'd')).toEqual(['default']);
    expect(await offered('buckets', 'view', 'finance', '--context=tenant-c')).toEqual(['--context=tenant-c']);
  });

  it('profile names seen before, per context, the newest first; never a token', async () => {
    expect(await offered('buckets', 'view', '')).toEqual([]);
    expect((await scpctl(['buckets', 'view', 'finance'], { env: dyn })).exitCode).toBe(0);
    expect((await scpctl(['buckets', 'append', 'legal', 'n-bucket'], { env: dyn })).exitCode).toBe(0);
    expect((await scpctl(['buckets', 'view', 'no-such-profile'], { env: dyn })).exitCode).toBe(4);
    expect(await complete('scpctl', 'buckets', 'view', '')).toEqual(['legal', 'finance']);
    expect(await offered('buckets', 'append', 'fi')).toEqual(['finance']);
    // Another context has seen none of them; the words' --context is the one asked.
    expect(await offered('--context', 'tenant-b', 'buckets', 'view', '')).toEqual([]);
    expect(await offered('--context=tenant-b', 'buckets', 'view', '')).toEqual([]);
    expect(await offered('--context', '=', 'default', 'buckets', 'view', '')).toEqual(['legal', 'finance']);
    const cache = readFileSync(join(cfg, 'profiles-seen.json'), 'utf8');
    expect(JSON.parse(cache)).toEqual({ default: ['legal', 'finance'] });
    expect(cache).not.toContain(emu.token);
  });

  it.skipIf(!has('tmux'))('in an interactive bash (tmux): Tab completes a profile seen before and a context', async () => {
    const tmux = (...args: string[]) => execa('tmux', ['-S', join(dir, 'tmux.sock'), ...args], { reject: false });
    const session = `scpctl-dynamic-${process.pid}`;
    const rc = join(dir, 'bashrc');
    writeFileSync(rc, `PS1='$ '\nsource ${JSON.stringify(script)}\n`);
    const vars = Object.entries(completionEnv).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
    try {
      await tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '20', `env -i ${vars} TERM=xterm bash --noprofile --rcfile ${rc} -i`);
      await pollPane(tmux, session, /^\$/m);
      await tmux('send-keys', '-t', session, 'scpctl buckets view le', 'Tab');
      await pollPane(tmux, session, /^\$ scpctl buckets view legal$/m);
      await tmux('send-keys', '-t', session, 'C-u', 'scpctl --context def', 'Tab');
      await pollPane(tmux, session, /^\$ scpctl --context default$/m);
    } finally {
      await tmux('kill-session', '-t', session);
      await tmux('kill-server');
    }
  });

  it('a broken store answers nothing to offer and exits 0', async () => {
    // A shell is waiting on the answer: a config store and a list of seen profiles that are not JSON
    // must not put an error on the user's command line.
    const broken = tempDir('scpctl-broken-store-');
    try {
      writeFileSync(join(broken, 'config.json'), '{', { mode: 0o600 });
      writeFileSync(join(broken, 'profiles-seen.json'), '{');
      for (const words of [['--context', ''], ['buckets', 'view', '']]) {
        const answer = await scpctl(['__complete', '--', ...words], { env: { ...dyn, SCPCTL_CONFIG_DIR: broken, HOME: broken } });
        expect(answer, words.join(' ')).toMatchObject({ exitCode: 0, stdout: 'words\n', stderr: '' });
      }
    } finally {
      removeDir(broken);
    }
  });
});

