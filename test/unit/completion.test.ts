// Completion is answered at Tab time from the command tree itself (candidates.ts): every command, flag and
// declared choice of the tree must be offered where it is accepted, so that adding a command or flag can
// never leave completion behind; the three scripts only ask and offer.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { completeWords } from '../../src/commands/completion/candidates.js';
import { SCRIPTS } from '../../src/commands/completion/scripts.js';

const program = buildProgram();

/** The visible commands (the hidden __complete is asked by the scripts, never offered). */
function commands(command: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  return command.createHelp().visibleCommands(command).filter((c) => command.commands.includes(c)).flatMap((c) => [{ path: [...path, c.name()], command: c }, ...commands(c, [...path, c.name()])]);
}

/** What a Tab after `words` offers (descriptions left out), or `files` for a file name. */
function offered(...words: string[]): string[] | 'files' {
  const [kind, ...lines] = completeWords(program, words, { SCPCTL_CONFIG_DIR: '/nonexistent/scpctl-completion-unit' });
  return kind === 'files' ? 'files' : lines.map((line) => line.split('\t')[0]!);
}

describe('what a Tab offers', () => {
  it('every command of the tree under its parent, and help where commander adds it', () => {
    for (const { path } of commands(program)) expect(offered(...path.slice(0, -1), ''), path.join(' ')).toContain(path.at(-1));
    expect(offered('')).not.toContain('__complete');
    expect(offered('help', '')).toContain('buckets');
    expect(offered('buckets', '')).toContain('help');
    expect(offered('buckets', 'help', 'vi')).toEqual(['view']);
  });

  it('at each command its own flags, its ancestors\' flags and --help', () => {
    for (const { path, command } of commands(program)) {
      const flags = offered(...path, '-');
      for (const option of command.options) {
        if (option.long) expect(flags, `${path.join(' ')} ${option.long}`).toContain(option.long);
        if (option.short) expect(flags, `${path.join(' ')} ${option.short}`).toContain(option.short);
      }
      for (const option of program.options.filter((o) => o.long !== '--version')) expect(flags).toContain(option.long);
      expect(flags).toEqual(expect.arrayContaining(['-h', '--help']));
      expect(flags).not.toContain('--version');
    }
  });

  it('declared choices, each command\'s -o formats, the periods, the config keys', () => {
    expect(offered('report', '--type', '')).toEqual(['application', 'connection', 'alert', 'network']);
    expect(offered('report', '--groupby', '')).toEqual(['application', 'user', 'device', 'activity']);
    expect(offered('report', '--period', '')).toEqual(expect.arrayContaining(['1h', '24h', '7d', '30d']));
    // -o: the formats each command declares (CommandSpec.output), never the union.
    expect(offered('report', '-o', '')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(offered('buckets', 'view', 'finance', '--output', '')).toEqual(['table', 'text', 'json']);
    expect(offered('login', '-o', '')).toEqual([]);
    expect(offered('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    for (const sub of ['get', 'set', 'unset']) {
      expect(offered('config', sub, '')).toEqual(['baseUrl', 'token', 'timeout', 'retries', 'caCert', 'historyKeep', 'tokenStore', 'tokenCommand', 'base-url', 'ca-cert', 'history-keep', 'token-store', 'token-command']);
    }
    expect(offered('config', 'set', 'timeout', '')).toEqual([]);
  });

  it('reads the words as commander does: flag values skipped, --flag=value whether or not = breaks words', () => {
    expect(offered('--context', 'buckets', 'buckets', 'v')).toEqual(['view']);
    expect(offered('report', '--type', 'alert', '--groupby', 'user', '--li')).toEqual(['--limit']);
    expect(offered('report', '--type=al')).toEqual(['--type=alert']);
    expect(offered('report', '--type', '=', 'al')).toEqual(['alert']);
    expect(offered('report', '--groupby', '=')).toEqual(['application', 'user', 'device', 'activity']);
    expect(offered('buckets', 'view', 'finance', '--wait', '-')).toContain('--json');
    expect(offered('--base-url', '')).toEqual([]);
  });

  it('--wait takes only a number, as commander is made to read it: the word after any other is the profile', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scpctl-completion-wait-'));
    try {
      writeFileSync(join(dir, 'profiles-seen.json'), JSON.stringify({ default: ['finance'] }));
      const env = { SCPCTL_CONFIG_DIR: dir };
      expect(completeWords(program, ['buckets', 'append', ''], env)).toEqual(['words', 'finance']);
      // `buckets append --wait finance a` appends a to finance: a bucket name is typed next, not a profile.
      expect(completeWords(program, ['buckets', 'append', '--wait', 'finance', ''], env)).toEqual(['words']);
      expect(completeWords(program, ['buckets', 'append', '--wait', '5', ''], env)).toEqual(['words', 'finance']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('file names for file-valued flags only', () => {
    expect(offered('buckets', 'append', 'finance', '--file', 'a')).toBe('files');
    expect(offered('buckets', 'append', 'finance', '--ca-cert=a')).toBe('files');
    expect(completeWords(program, ['buckets', 'append', 'x', '--ca-cert=/tmp/a'], {})).toEqual(['files', '/tmp/a']);
    expect(offered('buckets', 'append', 'finance', '--base-url', '')).toEqual([]);
  });
});

describe.each(['bash', 'zsh', 'fish'] as const)('the %s script', (shell) => {
  const script = SCRIPTS[shell];

  it('registers itself for scpctl and asks scpctl __complete', () => {
    const registration = { bash: /^complete -F _scpctl scpctl$/m, zsh: /^#compdef scpctl$/m, fish: /^complete -c scpctl -f -a '\(__scpctl_complete\)'$/m }[shell];
    expect(script).toMatch(registration);
    expect(script).toContain('command scpctl __complete -- ');
  });

  it('never expands a candidate (contract 13): no compgen -W, no eval, no unquoted substitution', () => {
    expect(script).not.toMatch(/compgen -W|\beval\b/);
    expect(script).not.toMatch(/=\(\s*\$\(/); // bash's words=( $(...) ) splits and globs
  });
});
