// A long table on a terminal goes through the pager (SCPCTL_PAGER, then PAGER, then `less -FRX`); a table
// that fits the screen, and anything piped, never does. Run in a real pseudo-terminal (`script`) with
// fake pagers: shell scripts that keep what they were given and say they ran.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, scpctl, useEmulator, type EmulatorSuite, has, inTerminal as terminalRun, shellQuote as quote } from './harness.js';

const MANY = Array.from({ length: 120 }, (_, i) => `bucket-${String(i).padStart(3, '0')}`);
let suite: EmulatorSuite;
useEmulator(['--profile', `many=${MANY.join(',')}`, '--profile', 'few=alpha-one,beta-two', '--events', '500'], (s) => {
  suite = s;
});

let runs = 0;

/** A fake pager in its own folder: it saves its arguments, LESS and its input, and prints a marker. */
function fakePager(name: string): { dir: string; path: string; input: string; args: string } {
  const dir = join(suite.dir, `pager-${runs++}`);
  mkdirSync(dir);
  const path = join(dir, name);
  const input = join(dir, 'input');
  const args = join(dir, 'args');
  writeFileSync(path, `#!/bin/sh\necho "$* LESS=$LESS" > ${quote(args)}\ncat > ${quote(input)}\necho __PAGER_RAN__\n`);
  chmodSync(path, 0o755);
  return { dir, path, input, args };
}

/** A run in an 80×40 pseudo-terminal that must succeed; `pipe` adds a shell tail (`| cat`). */
async function inTerminal(args: string[], env: Record<string, string | undefined>, pipe = ''): Promise<string> {
  const { output, exitCode } = await terminalRun(args, { ...suite.env, NO_COLOR: '1', ...env }, { pipe });
  expect(exitCode, output).toBe(0);
  return output;
}

describe.skipIf(!has('script'))('the pager, in a pseudo-terminal', { concurrent: true }, () => {
  it('a table taller than the screen goes through SCPCTL_PAGER, whole', async () => {
    const pager = fakePager('my-pager');
    const output = await inTerminal(['buckets', 'view', 'many'], { SCPCTL_PAGER: pager.path, PAGER: '/bin/false' });
    expect(output).toContain('__PAGER_RAN__');
    const paged = readFileSync(pager.input, 'utf8');
    expect(paged).toContain('many: 120 buckets');
    expect(paged).toMatch(/│ +1 │ bucket-000 +│/);
    expect(paged).toMatch(/│ +120 │ bucket-119 +│/);
    expect(output).not.toContain('bucket-119'); // the pager showed it, scpctl did not write it itself
  });

  it('PAGER when SCPCTL_PAGER is not set; a report table as well', async () => {
    const pager = fakePager('their-pager');
    const output = await inTerminal(['report', '--period', '30d', '--limit', '100', '-o', 'table'], { PAGER: pager.path });
    expect(output).toContain('__PAGER_RAN__');
    expect(readFileSync(pager.input, 'utf8').split('\n').filter((l) => l.startsWith('│'))).toHaveLength(101);
  });

  it('`less -FRX` by default, found on PATH', async () => {
    const pager = fakePager('less');
    const output = await inTerminal(['buckets', 'view', 'many'], { PATH: `${pager.dir}:${process.env.PATH}` });
    expect(output).toContain('__PAGER_RAN__');
    expect(readFileSync(pager.args, 'utf8').trim()).toBe('-FRX LESS=FRX');
  });

  it('a table that fits the screen is written directly', async () => {
    const pager = fakePager('my-pager');
    const output = await inTerminal(['buckets', 'view', 'few'], { SCPCTL_PAGER: pager.path });
    expect(output).toMatch(/│ +1 │ alpha-one +│/);
    expect(output).not.toContain('__PAGER_RAN__');
    expect(existsSync(pager.input)).toBe(false);
  });

  it('piped, a long table never pages', async () => {
    const pager = fakePager('my-pager');
    const output = await inTerminal(['buckets', 'view', 'many', '-o', 'table'], { SCPCTL_PAGER: pager.path }, ' | cat');
    expect(output).toMatch(/│ +120 │ bucket-119 +│/);
    expect(output).not.toContain('__PAGER_RAN__');
    expect(existsSync(pager.input)).toBe(false);
  });

  it('report --all as a table: counted on stderr while it pages, then the whole table through the pager', async () => {
    const pager = fakePager('my-pager');
    const all = await scpctl(['report', '--all', '--period', '30d', '--limit', '100', '-o', 'json'], { env: suite.env });
    const count = (JSON.parse(all.stdout) as unknown[]).length;
    expect(count).toBeGreaterThan(100);
    const output = await inTerminal(['report', '--all', '--period', '30d', '--limit', '100', '-o', 'table'], { SCPCTL_PAGER: pager.path });
    expect(output).toContain('__PAGER_RAN__');
    expect(output).toContain(`${count} records in ${Math.ceil(count / 100)} pages`);
    const paged = readFileSync(pager.input, 'utf8').split('\n');
    // stdout went to the pager, so the count on the terminal came by stderr.
    expect(paged.join('\n')).not.toContain('records in');
    expect(paged.filter((l) => l.startsWith('│'))).toHaveLength(count + 1);
    expect(paged.filter((l) => l.startsWith('└'))).toHaveLength(1);
  });

  it('while the pager runs, Ctrl-C is the pager\'s; SIGTERM ends the pager and scpctl (143)', async ({ expect }) => {
    const dir = join(suite.dir, `pager-${runs++}`);
    mkdirSync(dir);
    const pager = join(dir, 'slow-pager');
    // It says which process is scpctl (the node that started it, perhaps through a shell), takes the table,
    // and waits. Only a node process counts: the shell and `script` above it name scpctl.js on their command
    // lines too, and the file is written whole (a reader polling it must never see a half-written one).
    const pidFile = (name: string) => quote(join(dir, name));
    writeFileSync(
      pager,
      `#!/bin/sh\nfor p in $PPID $(ps -o ppid= -p $PPID); do [ "$(cat /proc/$p/comm 2>/dev/null)" = node ] && grep -q scpctl /proc/$p/cmdline 2>/dev/null && echo $p > ${pidFile('scpctl.tmp')} && mv ${pidFile('scpctl.tmp')} ${pidFile('scpctl')}; done\n` +
        `echo $$ > ${pidFile('pager.tmp')} && mv ${pidFile('pager.tmp')} ${pidFile('pager')}\ncat > /dev/null\nsleep 30\n`,
    );
    chmodSync(pager, 0o755);
    const command = `stty cols 80 rows 40; node ${quote(BIN)} buckets view many`;
    const run = execa('script', ['-qfec', command, '/dev/null'], {
      env: { TERM: 'xterm-256color', ...suite.env, NO_COLOR: '1', SCPCTL_PAGER: pager } as Record<string, string>,
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
      timeout: 20_000,
    });
    const pidIn = async (name: string): Promise<number> => {
      await expect.poll(() => existsSync(join(dir, name)), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => readFileSync(join(dir, name), 'utf8').trim(), { timeout: 2_000 }).not.toBe('');
      return Number(readFileSync(join(dir, name), 'utf8'));
    };
    const [scpctlPid, pagerPid] = [await pidIn('scpctl'), await pidIn('pager')];
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    process.kill(scpctlPid, 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300)); // time to (wrongly) stop, which must not happen
    expect(alive(scpctlPid)).toBe(true);
    expect(alive(pagerPid)).toBe(true);
    process.kill(scpctlPid, 'SIGTERM');
    const r = await run;
    expect(r.exitCode).toBe(143);
    expect(String(r.stdout)).toContain('scpctl: terminated');
    await expect.poll(() => alive(pagerPid), { timeout: 5_000 }).toBe(false);
  });

  it('a pager that cannot be started: the table is written directly', async () => {
    const output = await inTerminal(['buckets', 'view', 'many'], { SCPCTL_PAGER: '/nonexistent/pager' });
    expect(output).toMatch(/│ +120 │ bucket-119 +│/);
  });
});
