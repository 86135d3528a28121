// The completion scripts are generated from the command tree: every command, flag and declared choice of the
// tree must be in every script, so that adding a command or flag can never leave completion behind.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { completionModel, completionScript, type CommandModel } from '../../src/commands/completion/index.js';

const program = buildProgram();
const shells = ['bash', 'zsh', 'fish'] as const;

/** The visible commands (the hidden __complete is asked by the scripts, never offered). */
function commands(command: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  return command.createHelp().visibleCommands(command).filter((c) => command.commands.includes(c)).flatMap((c) => [{ path: [...path, c.name()], command: c }, ...commands(c, [...path, c.name()])]);
}

function nodes(model: CommandModel): CommandModel[] {
  return [model, ...model.subcommands.flatMap(nodes)];
}

describe('the completion model', () => {
  const model = completionModel(program);
  const byPath = new Map(nodes(model).map((n) => [n.path.join(' '), n]));

  it('has a node for every command of the tree, and help where commander adds it', () => {
    for (const { path } of commands(program)) expect(byPath.has(path.join(' ')), path.join(' ')).toBe(true);
    expect(byPath.get('help')?.args[0]?.choices).toContain('buckets');
    expect(byPath.get('buckets')!.subcommands.map((s) => s.name)).toContain('help');
  });

  it('gives each node its own flags, its ancestors\' flags and --help', () => {
    for (const { path, command } of commands(program)) {
      const flags = byPath.get(path.join(' '))!.options.flatMap((o) => o.flags);
      for (const option of command.options) {
        if (option.long) expect(flags, `${path.join(' ')} ${option.long}`).toContain(option.long);
        if (option.short) expect(flags, `${path.join(' ')} ${option.short}`).toContain(option.short);
      }
      for (const option of program.options.filter((o) => o.long !== '--version')) expect(flags).toContain(option.long);
      expect(flags).toEqual(expect.arrayContaining(['-h', '--help']));
    }
  });

  it('reads declared choices, and knows -o and the config keys', () => {
    const report = byPath.get('report')!;
    const choices = (flag: string) => report.options.find((o) => o.flags.includes(flag))?.choices;
    expect(choices('--type')).toEqual(['application', 'connection', 'alert', 'network']);
    expect(choices('--groupby')).toEqual(['application', 'user', 'device', 'activity']);
    expect(choices('--period')).toEqual(expect.arrayContaining(['1h', '24h', '7d', '30d']));
    // -o: the formats each command declares (CommandSpec.output), never the union.
    expect(choices('-o')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(byPath.get('buckets view')!.options.find((o) => o.long === '--output')!.choices).toEqual(['table', 'text', 'json']);
    expect(byPath.get('login')!.options.find((o) => o.long === '--output')!.choices).toBeUndefined();
    expect(byPath.get('completion')!.args[0]!.choices).toEqual(['bash', 'zsh', 'fish']);
    for (const sub of ['get', 'set', 'unset']) {
      expect(byPath.get(`config ${sub}`)!.args[0]!.choices).toEqual(['baseUrl', 'token', 'timeout', 'retries', 'caCert', 'historyKeep', 'tokenStore', 'tokenCommand', 'base-url', 'ca-cert', 'history-keep', 'token-store', 'token-command']);
    }
  });

  it('marks file-valued flags', () => {
    const append = byPath.get('buckets append')!;
    expect(append.options.find((o) => o.long === '--file')!.files).toBe(true);
    expect(append.options.find((o) => o.long === '--ca-cert')!.files).toBe(true);
    expect(append.options.find((o) => o.long === '--base-url')!.files).toBe(false);
  });
});

describe.each(shells)('the %s script', (shell) => {
  const script = completionScript(shell, program);

  it('names every command and subcommand', () => {
    for (const { path } of commands(program)) expect(script, path.join(' ')).toContain(path[path.length - 1]!);
  });

  it('names every long flag of every command, and every declared choice', () => {
    const word = (text: string) => new RegExp(`(^|[\\s'"{,(|])${text.replace(/[-]/g, '\\-')}([\\s'"=+,}\\[)|]|$)`, 'm');
    for (const { command } of commands(program)) {
      for (const option of command.options) {
        const long = shell === 'fish' ? `-l ${option.long!.slice(2)}` : option.long!;
        expect(script, option.long).toMatch(word(long));
        for (const choice of option.argChoices ?? []) expect(script).toMatch(word(choice));
      }
    }
  });

  it('registers itself for scpctl', () => {
    const registration = { bash: /^complete -F _scpctl scpctl$/m, zsh: /^#compdef scpctl$/m, fish: /^complete -c scpctl /m }[shell];
    expect(script).toMatch(registration);
  });
});

describe('dynamic values (contexts, profiles seen before) in every shell', () => {
  it('bash, zsh and fish ask scpctl __complete for the --context value and the profile argument', () => {
    expect(completionScript('bash', program)).toContain(`'--context') echo '__dynamic__ context' ;;`);
    expect(completionScript('bash', program)).toContain(`'--contexts') echo '__dynamic__ context' ;;`);
    expect(completionScript('bash', program)).toMatch(/'buckets view'\)\n      case "\$2" in\n        0\) echo '__dynamic__ profile' ;;/);
    const zsh = completionScript('zsh', program);
    expect(zsh).toContain(`'--context=[named set of settings to use (env SCPCTL_CONTEXT)]:name:{_scpctl__dynamic context}'`);
    expect(zsh).toContain(`'1:profile:{_scpctl__dynamic profile}'`);
    expect(zsh).toContain('command scpctl __complete $1');
    const fish = completionScript('fish', program);
    expect(fish).toContain(`-l context -x -a '(scpctl __complete context)'`);
    expect(fish).toMatch(/-n '__scpctl_at \\'config use-context\\' 0' -a '\(scpctl __complete context\)'/);
  });
});
