// The command tree: declares commands and flags, parses, dispatches. Each action loads its command module
// only when it runs, so start-up stays cheap as the tool grows. Errors are printed in one place: `main`.
import { Argument, Command, CommanderError, Option } from 'commander';
import { DifferencesFound, ScpctlError, UsageError, exitCodeOf } from './errors.js';
import type { CommandContext, GlobalOptions } from './commands/context.js';
import type { Terminal } from './output/terminal.js';
import { version } from './version.js';
import { installInterruptHandlers, interruptSignal } from './interrupt.js';
import { neutralizeEnvTraps } from './settings/env-traps.js';
import { REPORT_GROUPBYS, REPORT_TYPES } from './core/report-query.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** Flags every command accepts, declared once on the program: commander reads them before or after the subcommand. */
function addGlobalOptions(command: Command): Command {
  return command
    .option('--base-url <url>', 'service base address (env SCPCTL_BASE_URL)')
    .option('--token-file <file>', 'read the API token from a file (env SCPCTL_TOKEN_FILE; or set SCPCTL_TOKEN)')
    .option('--context <name>', 'named set of settings to use (env SCPCTL_CONTEXT)', undefined)
    .addOption(new Option('-o, --output <format>', 'output format: table, text, json (report: table, json, ndjson, csv)'))
    .option('--json', 'short for --output json')
    .option('-q, --quiet', 'no progress or summaries on stderr; errors still print')
    .option('-v, --verbose', 'print each HTTP request and response on stderr (token shown as ***)')
    .option('--timeout <seconds>', 'per-request timeout in seconds (env SCPCTL_TIMEOUT; default 30)')
    .option('--retries <n>', 'retries on network errors, 429 and 5xx (default 3)')
    .option('--ca-cert <file>', 'extra PEM certificate authority for TLS (env SCPCTL_CA_CERT)')
    .option('--no-color', 'no ANSI colours (env NO_COLOR)');
}

type Action = (ctx: CommandContext, ...args: any[]) => Promise<void>;

/** Builds the context from the merged options and runs the (lazily loaded) command. */
function run(load: () => Promise<Action>) {
  return async (...args: unknown[]): Promise<void> => {
    const command = args[args.length - 1] as Command;
    const options = command.optsWithGlobals() as GlobalOptions;
    const ctx = await createContext(options);
    const action = await load();
    await action(ctx, ...args.slice(0, -2), args[args.length - 2]);
  };
}

let currentContext: CommandContext | undefined;

async function createContext(options: GlobalOptions): Promise<CommandContext> {
  const { CommandContext, Terminal } = await import('./commands/context.js');
  currentContext = new CommandContext(options, new Terminal(options), interruptSignal);
  await currentContext.preloadPipes();
  return currentContext;
}

function bucketCommand(parent: Command, name: string, summary: string): Command {
  return parent.command(name)
    .description(summary)
    .addOption(new Option('--wait [seconds]', 'when a change is pending, retry until it clears (default 120 s)'));
}

function withNameInput(command: Command): Command {
  return command
    .argument('<profile>', 'storage constraint profile name')
    .argument('[bucket...]', 'bucket names (commas, spaces and newlines separate)')
    .option('-f, --file <file>', 'read names from FILE (repeatable; - is standard input)', collect)
    .option('--no-validate', 'skip the S3 naming rules (commas, whitespace and control characters are still refused)')
    .option(...DRY_RUN);
}

/** append, delete, replace, modify: check the names and show the request, send nothing (no token needed). */
const DRY_RUN = ['--dry-run', 'check the names and show what would be sent; send nothing'] as const;

export function buildProgram(): Command {
  const program = addGlobalOptions(new Command('scpctl'))
    .description('Keep storage constraint profile bucket lists and pull event reports.')
    .version(version(), '-V, --version', 'print the version')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .addHelpText(
      'after',
      examples('scpctl login --base-url https://tenant.example.com', 'scpctl buckets view finance', 'scpctl report --type alert --groupby user --period 7d'),
    );

  const buckets = program.command('buckets').description('view and change the bucket list of a profile');
  buckets.addHelpText('after', examples('scpctl buckets view finance', 'scpctl buckets append finance new-bucket-1 new-bucket-2', 'scpctl buckets sync finance -f allowlist.txt --dry-run'));

  withNameInput(bucketCommand(buckets, 'append', 'add names to the list (op appendToBucketList)'))
    .addHelpText('after', examples('scpctl buckets append finance logs-2024 backups-eu', 'grep -v test names.txt | scpctl buckets append finance', 'scpctl buckets append finance -f new.txt --dry-run'))
    .action(run(async () => (await import('./commands/buckets/index.js')).append));

  withNameInput(bucketCommand(buckets, 'delete', 'remove names from the list (op deleteFromBucketList)'))
    .addHelpText('after', examples('scpctl buckets delete finance old-bucket', 'scpctl buckets delete finance -f retired.txt'))
    .action(run(async () => (await import('./commands/buckets/index.js')).remove));

  withNameInput(bucketCommand(buckets, 'replace', 'set the whole list (op replaceBucketList)'))
    .option('--allow-empty', 'allow an empty list (removes every bucket)')
    .option('--no-history', 'do not read the current list first to keep it in the history')
    .addHelpText('after', examples('scpctl buckets replace finance -f allowlist.txt', 'scpctl buckets view finance > f && scpctl buckets replace finance -f f'))
    .action(run(async () => (await import('./commands/buckets/index.js')).replace));

  bucketCommand(buckets, 'modify', 'delete then add names in one request (op modifyBucketList)')
    .argument('<profile>', 'storage constraint profile name')
    .option('--add <names>', 'names to add (repeatable; commas and spaces separate)', collect)
    .option('--add-file <file>', 'names to add from FILE (repeatable; - is standard input)', collect)
    .option('--delete <names>', 'names to delete (repeatable)', collect)
    .option('--delete-file <file>', 'names to delete from FILE (repeatable)', collect)
    .option('--no-validate', 'skip the S3 naming rules')
    .option(...DRY_RUN)
    .addHelpText('after', examples('scpctl buckets modify finance --add new-a,new-b --delete old-c', 'scpctl buckets modify finance --add-file add.txt --delete-file del.txt --dry-run --json'))
    .action(run(async () => (await import('./commands/buckets/index.js')).modify));

  bucketCommand(buckets, 'view', 'print the bucket list')
    .argument('<profile>', 'storage constraint profile name')
    .addHelpText('after', examples('scpctl buckets view finance', 'scpctl buckets view finance --json', 'scpctl buckets view finance > allowlist.txt'))
    .action(run(async () => (await import('./commands/buckets/index.js')).view));

  bucketCommand(buckets, 'sync', 'make the list equal to FILE: view, diff, one modify')
    .argument('<profile>', 'storage constraint profile name')
    .option('-f, --file <file>', 'the desired list (repeatable; - is standard input)', collect)
    .option('--dry-run', 'print the plan, change nothing')
    .option('--exit-code', 'exit 8 when differences were found or applied')
    .option('--verify', 'view again after applying and fail if the list does not match')
    .option('--allow-empty', 'allow an empty desired list (removes every bucket)')
    .option('--no-validate', 'skip the S3 naming rules')
    .addHelpText('after', examples('scpctl buckets sync finance -f allowlist.txt --dry-run --exit-code', 'scpctl buckets sync finance -f allowlist.txt --verify --wait 300'))
    .action(run(async () => (await import('./commands/buckets/index.js')).sync));

  buckets.command('history')
    .description('the versions of the list kept before each replace, sync, apply and restore')
    .argument('<profile>', 'storage constraint profile name')
    .option('--show <id>', "print that version's names, one a line")
    .addHelpText('after', examples('scpctl buckets history finance', 'scpctl buckets history finance --show 0mwtcczfx3hj'))
    .action(run(async () => (await import('./commands/buckets/index.js')).history));

  bucketCommand(buckets, 'restore', 'put a kept version of the list back (plan, one modify)')
    .argument('<profile>', 'storage constraint profile name')
    .option('--to <id>', 'the version to restore (see buckets history)')
    .option('--dry-run', 'print the plan, change nothing')
    .option('--exit-code', 'exit 8 when differences were found or applied')
    .option('--allow-empty', 'allow restoring an empty version (removes every bucket)')
    .addHelpText('after', examples('scpctl buckets restore finance --to 0mwtcczfx3hj --dry-run', 'scpctl buckets restore finance --to 0mwtcczfx3hj'))
    .action(run(async () => (await import('./commands/buckets/index.js')).restore));

  program.command('apply')
    .description('make many profiles equal to a manifest (YAML or JSON): plan, then one modify per profile')
    .option('-f, --file <manifest>', 'the manifest (- is standard input)')
    .option('--dry-run', 'print the plan, change nothing')
    .option('--exit-code', 'exit 8 when differences were found or applied')
    .option('--markdown', 'the plan as a Markdown table with the names (for a pull-request comment)')
    .option('--save-plan <file>', 'with --dry-run: save the plan, with each live list\'s fingerprint')
    .option('--plan <file>', 'apply a saved plan; profiles changed since it was made are left alone (exit 9)')
    .addOption(new Option('--wait [seconds]', 'when a change is pending, retry until it clears (default 120 s)'))
    .addHelpText('after', examples('scpctl apply -f scpctl.yaml --dry-run', 'scpctl apply -f scpctl.yaml --dry-run --markdown --save-plan plan.json', 'scpctl apply --plan plan.json --wait 300'))
    .action(run(async () => (await import('./commands/apply/index.js')).apply));

  program.command('report')
    .description('pull a summarized report of events')
    .addOption(new Option('--type <type>', 'event type').choices(REPORT_TYPES))
    .addOption(new Option('--groupby <field>', 'group by').choices(REPORT_GROUPBYS))
    .option('--period <period>', 'time window: 1h, 24h (1d), 7d, 30d (or their seconds); default 24h')
    .option('--start <time>', 'window start: Unix seconds, ISO 8601, or relative (2h, 3d, 90m ago)')
    .option('--end <time>', 'window end (default now)')
    .option('--insertion-start <seconds>', 'insertion time window start (Unix seconds)')
    .option('--insertion-end <seconds>', 'insertion time window end (Unix seconds)')
    .option('--query <query>', 'raw event query, e.g. "app eq Dropbox"')
    .option('--where <field=value>', 'filter (repeatable): becomes "field eq value"', collect)
    .option('--alert-type <type>', 'short for --where alert_type=TYPE')
    .option('--limit <n>', 'records per request, 1 to 9999 (with --all: page size, default 9999)')
    .option('--skip <n>', 'records to skip (0 or more)')
    .option('--all', 'page through every record, streaming them as they come')
    .option('--checkpoint <file>', 'with --all: continue from the end of the last complete run recorded in FILE (cron, SIEM)')
    .option('--lag <seconds>', 'with --checkpoint: stop this many seconds before now (the service indexing lag), default 300')
    .option('--chart', 'draw bars of the count column under the table (needs --groupby)')
    .option('--raw-time', 'keep Unix seconds in tables (on a terminal they show as ISO 8601 UTC)')
    .addHelpText('after', examples('scpctl report --type application --groupby application --period 7d', 'scpctl report --type alert --alert-type dlp --groupby user --start 3d --chart', 'scpctl report --all -o ndjson > events.ndjson', 'scpctl report --all --checkpoint ~/.scpctl-alerts.json --type alert -o ndjson >> alerts.ndjson'))
    .action(run(async () => (await import('./commands/report.js')).report));

  program.command('login')
    .description('store the base URL and token in the config store')
    .option('--with-token', 'read the token from standard input instead of a prompt')
    .option('--no-verify', 'store without checking the token')
    .addHelpText('after', examples('scpctl login --base-url https://tenant.example.com', 'echo "$TOKEN" | scpctl login --base-url https://tenant.example.com --with-token'))
    .action(run(async () => (await import('./commands/login.js')).login));

  program.command('logout')
    .description('forget the stored token of the context')
    .addHelpText('after', examples('scpctl logout', 'scpctl --context tenant-b logout'))
    .action(run(async () => (await import('./commands/login.js')).logout));

  const config = program.command('config').description('read and write the config store');
  config.addHelpText('after', examples('scpctl config list', 'scpctl config set timeout 60', 'scpctl config use-context tenant-b'));
  config.command('get').description('print a stored value (token masked)').argument('<key>', 'baseUrl, token, timeout, retries, caCert')
    .addHelpText('after', examples('scpctl config get baseUrl', 'scpctl --context tenant-b config get timeout'))
    .action(run(async () => (await import('./commands/config.js')).configGet));
  config.command('set').description('store a value (the token only from a prompt or --with-token)')
    .argument('<key>', 'baseUrl, token, timeout, retries, caCert').argument('[value]', 'the value')
    .option('--with-token', 'read the token from standard input')
    .addHelpText('after', examples('scpctl config set base-url https://tenant.example.com', 'echo "$TOKEN" | scpctl config set token --with-token'))
    .action(run(async () => (await import('./commands/config.js')).configSet));
  config.command('unset').description('remove a stored value').argument('<key>', 'the key')
    .addHelpText('after', examples('scpctl config unset caCert', 'scpctl --context old config unset token'))
    .action(run(async () => (await import('./commands/config.js')).configUnset));
  config.command('list').description('every setting in effect, with its source')
    .addHelpText('after', examples('scpctl config list', 'SCPCTL_TIMEOUT=5 scpctl config list --json'))
    .action(run(async () => (await import('./commands/config.js')).configList));
  config.command('path').description('print the config file path')
    .addHelpText('after', examples('scpctl config path', 'ls -l "$(scpctl config path)"'))
    .action(run(async () => (await import('./commands/config.js')).configPathCommand));
  const contexts = async () => import('./commands/config-contexts.js');
  config.command('use-context').description('choose the default context (one that exists)').argument('<context>', 'context name')
    .addHelpText('after', examples('scpctl config use-context tenant-b', 'scpctl config use-context default'))
    .action(run(async () => (await contexts()).useContext));
  config.command('current-context').description('print the context in effect (--context, SCPCTL_CONTEXT, then the default)')
    .addHelpText('after', examples('scpctl config current-context', 'SCPCTL_CONTEXT=tenant-b scpctl config current-context'))
    .action(run(async () => (await contexts()).currentContext));
  config.command('get-contexts').description('list the contexts (* marks the default)')
    .addHelpText('after', examples('scpctl config get-contexts', 'scpctl config get-contexts --json'))
    .action(run(async () => (await contexts()).getContexts));
  config.command('delete-context').description('forget a context and its settings').argument('<context>', 'context name')
    .addHelpText('after', examples('scpctl config delete-context old-tenant', 'scpctl config get-contexts && scpctl config delete-context tenant-b'))
    .action(run(async () => (await contexts()).deleteContext));
  config.command('rename-context').description('rename a context (the default follows it)').argument('<context>', 'context name').argument('<new-name>', 'new name')
    .addHelpText('after', examples('scpctl config rename-context default tenant-a', 'scpctl config rename-context tenant-b staging'))
    .action(run(async () => (await contexts()).renameContext));

  program.command('doctor')
    .description('check config, network, TLS, proxy, token and clock')
    .addHelpText('after', examples('scpctl doctor', 'scpctl doctor --json'))
    .action(run(async () => (await import('./commands/doctor/index.js')).doctor));

  program
    .command('emulator')
    .description('a local server that speaks the API, for trying things and for tests')
    .option('--host <host>', 'loopback address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', '8787')
    .option('--token <token>', 'the token the emulator accepts (its own, not yours)', 'emulator-token')
    .option('--state <file>', 'keep profiles in FILE across restarts (written atomically)')
    .option('--profile <name>', 'a profile to serve, NAME or NAME=a,b,c (repeatable)', collect)
    .option('--events <n>', 'synthetic events for reports', '2000')
    .option('--seed <seed>', 'seed of the synthetic events', '1')
    .option('--pending-ms <ms>', 'how long each change stays pending', '0')
    .option('--rate <n/s>', 'answer 429 past N requests in S seconds, e.g. 24/5')
    .option('--http200-errors', 'answer API errors as the real service does: HTTP 200 with status error (403 for a rejected token)')
    .option('--page-cap <n>', 'cap report pages at N records whatever limit says (the service often caps at 5000)')
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM)')
    .option('--tls-key <file>', 'the key of --tls-cert (PEM)')
    .addHelpText('after', examples('scpctl emulator --port 0', 'scpctl emulator --profile finance=a-bucket,b-bucket --pending-ms 2000', 'scpctl emulator --http200-errors --page-cap 5000 --rate 24/5'))
    .action(async (options) => {
      const { runEmulator } = await import('./commands/emulator.js');
      await runEmulator(options);
    });

  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .addHelpText('after', examples('scpctl completion bash > /etc/bash_completion.d/scpctl', 'scpctl completion zsh > "${fpath[1]}/_scpctl"'))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('./commands/completion.js');
      process.stdout.write(completionScript(shell, program));
    });

  // Asked by the completion scripts for values known only at run time (contexts, profiles seen before).
  program
    .command('__complete', { hidden: true })
    .description('print completion candidates of a kind (context, profile), one a line')
    .argument('<kind>', 'context or profile')
    .argument('[prefix]', 'what has been typed of the value', '')
    .addHelpText('after', examples('scpctl __complete context', 'scpctl __complete profile fin'))
    .action(async (kind: string, prefix: string, _options: unknown, command: Command) => {
      const { dynamicCandidates } = await import('./commands/complete-dynamic.js');
      const names = dynamicCandidates(kind, prefix, command.optsWithGlobals(), process.env);
      process.stdout.write(names.map((name) => `${name}\n`).join(''));
    });

  // `scpctl --help` and `scpctl help` list the commands in these groups (commander's help groups).
  const groups: Record<string, string[]> = {
    'Bucket lists:': ['buckets', 'apply'],
    'Reports:': ['report'],
    'Setup:': ['login', 'logout', 'config', 'doctor', 'completion'],
    'Testing:': ['emulator'],
  };
  for (const [heading, names] of Object.entries(groups)) for (const name of names) program.commands.find((c) => c.name() === name)?.helpGroup(heading);
  program.commandsGroup('Help:').helpCommand(true);

  return program;
}

/** Prints an error the one way scpctl prints errors: `scpctl: message`, details, a hint; the stack only with -v. */
function printError(error: unknown, verbose: boolean, term: Terminal): void {
  if (error instanceof DifferencesFound) return; // an outcome for `sync --exit-code`, already described
  const stack = verbose && error instanceof Error ? error.stack : undefined;
  if (error instanceof ScpctlError) {
    term.error(error.message, { hint: error.hint, details: error instanceof UsageError ? error.details : undefined, stack });
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  term.error(`unexpected failure: ${message.split('\n')[0]}`, stack ? { stack } : { hint: 'run again with --verbose for details' });
}

export async function main(argv: string[]): Promise<void> {
  // The cheapest path for the most common probe of a CLI.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${version()}\n`);
    return;
  }
  installInterruptHandlers();
  for (const warning of neutralizeEnvTraps(process.env)) {
    if (!argv.includes('-q') && !argv.includes('--quiet')) process.stderr.write(`warning: ${warning}\n`);
  }
  // A closed pipe (`scpctl buckets view p | head`) is the reader's choice, not an error.
  // Any other failure to write the data (a full disk) is one line, like every other error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`scpctl: cannot write the output: ${error.code ?? error.message}\n`);
    process.exit(1);
  });

  const program = buildProgram();
  const verbose = wantsVerbose(argv);
  program.exitOverride();
  program.configureOutput({
    writeErr: (text) => process.stderr.write(text.replace(/^error: /, 'scpctl: ')),
    outputError: (text, write) => write(text.replace(/^error: /, 'scpctl: ')),
  });
  for (const command of allCommands(program)) {
    command.exitOverride();
    command.showSuggestionAfterError(true);
    command.configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'scpctl: ')) });
  }
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return;
    }
    await program.parseAsync(keepWaitArguments(argv), { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not failures; every other parse error is a usage error.
      const benign = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
      process.exitCode = benign ? 0 : 2;
      return;
    }
    // Errors before a command started (an unreadable config file) have no terminal yet: make one.
    const term = currentContext?.term ?? new (await import('./output/terminal.js')).Terminal({ verbose });
    printError(error, verbose, term);
    process.exitCode = exitCodeOf(error);
  }
}

/**
 * `--wait [SECONDS]` takes only a number: commander would take whatever word follows an optional value
 * (`buckets append --wait finance a` would wait "finance" seconds on profile "a"). A `--wait` followed by
 * a word that is not a number moves to the end of the options (before any `--`), where it stands alone.
 */
export function keepWaitArguments(argv: readonly string[]): string[] {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const moved: string[] = [];
  const kept: string[] = [];
  for (let i = 0; i < end; i++) {
    const next = argv[i + 1];
    const standsAlone = i + 1 >= end || next === undefined || next.startsWith('-') || /^\d+(\.\d+)?$/.test(next);
    if (argv[i] === '--wait' && !standsAlone) moved.push('--wait');
    else kept.push(argv[i]!);
  }
  return [...kept, ...moved.slice(0, 1), ...argv.slice(end)];
}

/** `-v`, `--verbose`, or a cluster of short flags holding v (`-qv`), before any `--`. */
export function wantsVerbose(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--verbose' || /^-[a-zA-Z]*v[a-zA-Z]*$/.test(arg)) return true;
  }
  return false;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...allCommands(sub)]);
}
