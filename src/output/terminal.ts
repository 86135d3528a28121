// Terminal facts in one place: which streams are terminals, whether colours and spinners are wanted,
// how wide the screen is, and the stderr channels (info, warn, verbose) with secrets masked.
// Nothing else in scpctl asks `isTTY` or reads NO_COLOR.
import { palette, type Palette } from './palette.js';
import { secretMask, type SecretMask } from '../core/secrets.js';
import { inertToRunner, visible } from '../core/service-text.js';
import type { Interruption } from '../interrupt.js';
import { ContextsFailed, DifferencesFound, ScpctlError, UsageError, messageOf } from '../errors.js';
import type { Io } from '../io.js';

export interface TerminalOptions {
  quiet?: boolean;
  verbose?: boolean;
  /** commander's `--no-color` gives `color: false`. */
  color?: boolean;
  /** The context this terminal prints for, among many (--contexts): JSON objects and records carry it. */
  label?: string;
}

export interface Spinner {
  update(text: string): void;
  succeed(text: string): void;
  stop(): void;
}

export class Terminal {
  readonly stdout: NodeJS.WriteStream;
  readonly stdoutIsTTY: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly label?: string;
  /** Colours on stdout. */
  readonly color: boolean;
  /** What is drawn for stdout is painted with this (no colours where stdout has none). */
  readonly paint: Palette;
  private readonly ci: boolean;
  /** On a GitHub runner, whose log obeys workflow commands in what stderr says (a file name a pull request chose). */
  private readonly runnerLog: boolean;
  /** Whether a stream that is (or is not) a terminal gets colours: the one rule for stdout and stderr. */
  private readonly colours: (isTTY: boolean) => boolean;
  /** Not CI, not TERM=dumb: a terminal that shows colours and can be redrawn. */
  private readonly lively: boolean;
  /** What stderr is, learnt at its first use: a run that writes nothing there never makes its stream (a pipe's is a socket). */
  private stderrFacts?: { isTTY: boolean; color: boolean; paint: Palette; animate: boolean };
  private readonly secrets: string[] = [];
  /**
   * The run's known tokens as a mask: what draws tables, charts and messages masks each cell and line with it
   * before cutting, padding or wrapping (a cut token would keep its start; a masked one keeps nothing).
   */
  readonly mask: SecretMask = secretMask(this.secrets);

  /** `interruption`: once a signal is handled, nothing more is printed (see `out`). */
  constructor(options: TerminalOptions, private readonly io: Io, private readonly interruption?: Interruption) {
    const env = io.env;
    this.stdout = io.stdout;
    this.stdoutIsTTY = Boolean(this.stdout.isTTY);
    this.quiet = Boolean(options.quiet);
    this.verbose = Boolean(options.verbose);
    this.label = options.label;
    this.ci = Boolean(env.CI) && env.CI !== 'false' && env.CI !== '0';
    this.runnerLog = env.GITHUB_ACTIONS === 'true';
    this.lively = env.TERM !== 'dumb' && !this.ci;
    const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
    const refused = options.color === false || env.NO_COLOR !== undefined && env.NO_COLOR !== '';
    this.colours = (isTTY) => !refused && (forced || (isTTY && this.lively));
    this.color = this.colours(this.stdoutIsTTY);
    this.paint = palette(this.color);
  }

  get stderr(): NodeJS.WriteStream {
    return this.io.stderr;
  }

  get stderrIsTTY(): boolean {
    return this.errFacts().isTTY;
  }

  /** Spinners on stderr: a terminal that can redraw, not CI, not --quiet. */
  get animate(): boolean {
    return this.errFacts().animate;
  }

  /** What stderr is; its colours decided for stderr itself, so `2> log` never fills a log with escape codes. */
  private errFacts(): { isTTY: boolean; color: boolean; paint: Palette; animate: boolean } {
    if (this.stderrFacts) return this.stderrFacts;
    const isTTY = Boolean(this.stderr.isTTY);
    const color = this.colours(isTTY);
    // A terminal that reports no width (a pty without a size, as `script` makes in CI) cannot be redrawn:
    // ora divides by the width and would clear lines forever.
    const sized = (this.stderr.columns ?? 0) > 0;
    this.stderrFacts = { isTTY, color, paint: palette(color), animate: isTTY && sized && !this.quiet && this.lively };
    return this.stderrFacts;
  }

  // Reached at the first use: the process's stdin is built on first touch (node:fs's streams).
  get stdin(): NodeJS.ReadStream {
    return this.io.stdin;
  }

  get stdinIsTTY(): boolean {
    return Boolean(this.io.stdin.isTTY);
  }

  /**
   * Whether a question may be put before a change: someone can read it (stderr) and answer it (stdin). A
   * pipe on either side, or CI (a runner may hand out a pseudo-terminal nobody watches), means no.
   */
  get asks(): boolean {
    return this.stderrIsTTY && this.stdinIsTTY && !this.ci;
  }

  get columns(): number {
    return this.stdout.columns || Number(this.io.env.COLUMNS) || 80;
  }

  /**
   * How wide a table may be: the screen on a terminal; unbounded into a file or a pipe, where a table is
   * never narrowed (every column, every cell whole: a 19-digit ID cut or dropped there is data lost).
   */
  get tableWidth(): number {
    return this.stdoutIsTTY ? this.columns : Number.POSITIVE_INFINITY;
  }

  /** A token never to print: masked on stderr and in what redact() is given (core/secrets.ts says how). */
  addSecret(secret: string): void {
    if (!this.secrets.includes(secret)) this.secrets.push(secret);
  }

  redact(text: string): string {
    return this.mask.mask(text);
  }

  /** Everything for stderr goes here: secrets masked, colours dropped where stderr is not for them. */
  private writeErr(text: string): void {
    // Once a signal is being handled, the aborted command's own error ("interrupted") says nothing new.
    if (this.interruption?.exiting) return;
    // Our own colours on stderr come from its palette; what reaches here painted otherwise (a service's
    // words are made visible before this) loses its colours where stderr has none.
    // eslint-disable-next-line no-control-regex
    const shown = this.errFacts().color ? text : text.replace(/\u001b\[[0-9;]*m/g, '');
    const masked = this.redact(shown);
    this.stderr.write(this.runnerLog ? inertToRunner(masked) : masked);
  }

  /**
   * Data for stdout, written as given. After a signal nothing more is written: the interrupt handler has
   * closed the output on a whole record and waits for stdout to take what it already has.
   */
  out(text: string | Uint8Array): void {
    if (this.interruption?.exiting) return;
    this.stdout.write(this.masked(text));
  }

  /**
   * Data with every known token masked (contract section 13): a bucket name or a report record from the
   * service may hold one, put there by whoever wrote it. Each piece written is searched whole, so a token
   * is found in any name or record; bytes are decoded only when they may hold one.
   */
  private masked(text: string | Uint8Array): string | Uint8Array {
    if (!this.mask.mayHold(text)) return text;
    return typeof text === 'string' ? this.redact(text) : Buffer.from(this.redact(Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8')));
  }

  /**
   * Data for stdout that may be long (a table): on a terminal, output taller than the screen goes through
   * the pager (SCPCTL_PAGER, PAGER, `less -FRX`); piped, it is written as it comes, chunk by chunk.
   */
  async page(output: string | Iterable<string | Buffer>): Promise<void> {
    const chunks = typeof output === 'string' ? [output] : output;
    if (!this.stdoutIsTTY) {
      for (const chunk of chunks) this.out(chunk);
      return;
    }
    const text = this.masked([...chunks].join('')) as string;
    const { pagerCommand, runPager } = await import('./pager.js');
    const command = pagerCommand(this.io.env);
    const rows = this.stdout.rows || 0;
    if (command === null || rows === 0 || !tallerThan(text, rows)) this.out(text);
    else await runPager(command, text, this, this.io.env, this.interruption);
  }

  // Every message is one line of text that may hold the service's words: control characters in it are
  // shown as escapes (`visible`) before scpctl adds its own colours, so only ours reach the terminal.

  /** Progress and summaries on stderr; silent under --quiet. */
  info(message: string): void {
    if (!this.quiet) this.writeErr(visible(message) + '\n');
  }

  /** A summary of something done: `✔ message`, the mark green where stderr has colours. */
  success(message: string): void {
    if (!this.quiet) this.writeErr(`${this.errFacts().paint.green('✔')} ${visible(message)}\n`);
  }

  /** One failure among others that went on (apply's summary): `✖ message`, indented, the mark red. */
  failure(message: string, indent = ''): void {
    if (!this.quiet) this.writeErr(`${indent}${this.errFacts().paint.red('✖')} ${visible(message)}\n`);
  }

  /** The lines before a question (what a change removes): shown even under --quiet, as the question is. */
  ask(message: string): void {
    this.writeErr(visible(message) + '\n');
  }

  warn(message: string): void {
    if (!this.quiet) this.writeErr(`${this.errFacts().paint.yellow('warning:')} ${visible(message)}\n`);
  }

  debug(message: string): void {
    if (this.verbose) this.writeErr(this.errFacts().paint.dim(visible(message)) + '\n');
  }

  /** The error line, its detail lines and hint (and a stack trace): printed even under --quiet. */
  error(message: string, more: { hint?: string; details?: readonly string[]; stack?: string } = {}): void {
    let text = `scpctl: ${visible(message)}\n`;
    for (const line of more.details ?? []) text += `  ${visible(line)}\n`;
    if (more.hint) text += `${this.errFacts().paint.dim(`hint: ${visible(more.hint)}`)}\n`;
    if (more.stack) text += `${more.stack.split('\n').map(visible).join('\n')}\n`;
    this.writeErr(text);
  }

  /** A failure, printed the one way (a run's by run.ts, each context's by many-contexts.ts); the stack only with -v. */
  printError(error: unknown, stack?: string): void {
    // An outcome for `sync --exit-code`, already described; or every failing context's, already printed.
    if (error instanceof DifferencesFound || error instanceof ContextsFailed) return;
    if (error instanceof ScpctlError) {
      return this.error(error.message, { hint: error.hint, details: error instanceof UsageError ? error.details : undefined, stack });
    }
    this.error(`unexpected failure: ${messageOf(error)}`, stack ? { stack } : { hint: 'run again with --verbose for details' });
  }

  /** A spinner on a terminal; elsewhere nothing (and under --verbose, the lines say enough). */
  spinner(text: string): Spinner {
    if (!this.animate || this.verbose) return { update() {}, succeed: (t) => this.success(t), stop() {} };
    let current = text;
    let finished: string | null | undefined;
    // ora writes to stderr itself, past writeErr: its text is masked here (a profile name may hold a token).
    const shown = (t: string): string => this.redact(visible(t));
    let live: { text: string; stopAndPersist(o: { symbol: string; text: string }): void; stop(): void } | undefined;
    // ora is loaded only when a spinner is shown; until it is there, updates are remembered.
    void import('ora').then(({ default: ora }) => {
      if (finished !== undefined) return;
      // ora picks its colours itself; ours for the stream it draws on decide (NO_COLOR, --no-color). Its chalk
      // still looks at stdout: with stdout piped the frame stays plain.
      live = ora({ text: shown(current), stream: this.stderr, discardStdin: false, color: this.errFacts().color ? 'cyan' : false }).start();
    });
    return {
      update: (t) => {
        current = t;
        if (live) live.text = shown(t);
      },
      succeed: (t) => {
        finished = t;
        if (live) live.stopAndPersist({ symbol: this.errFacts().paint.green('✔'), text: shown(t) });
        else this.success(t);
      },
      stop: () => {
        finished = null;
        live?.stop();
      },
    };
  }
}

/** Whether `text` has more than `rows` lines, counted without splitting it. */
function tallerThan(text: string, rows: number): boolean {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) if (++lines > rows) return true;
  return false;
}

