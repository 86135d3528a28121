// `--contexts PATTERN[,PATTERN...]` (contract section 16): the command once per context matched, each with its
// own context (its settings resolved as `--context NAME` resolves them, so its own base URL, token, client,
// connections and client-side rate), at most --parallel at once, in context-name order. The runner, the
// order and the exit-code rule are core/fan-out.ts's (the library's connectAll uses the same); output/
// labelled.ts labels each context's stdout and stderr. Here: what is refused first, the one question, and
// each context's run.
import { Readable } from 'node:stream';
import { Option } from 'commander';
import { DifferencesFound, ContextsFailed, UsageError } from '../errors.js';
import { chooseContexts, fanOut, type ContextOutcome, refuseOneTenantVariables, fanOutExitCode, outcomeLine, parseContextPatterns, parseParallel } from '../core/fan-out.js';
import { storedContextNames } from '../settings/resolve.js';
import { LabelledStdout, labelledStderr } from '../output/labelled.js';
import { isValueFormat } from '../output/write.js';
import { readInput } from '../files/read-input.js';
import { confirmContexts } from './confirm-removal.js';
import { CommandContext, Terminal } from './context.js';
import type { OutputSpec } from '../output/formats.js';
import type { Io } from '../io.js';
import { Interruption } from '../interrupt.js';

/** How a command runs over many contexts (contract section 16). */
export interface FanOutSpec {
  /** It changes lists (unless --dry-run): at a terminal, a change to several contexts asks once first. */
  changes: boolean;
  /** Its options that name one file of one tenant (a checkpoint, a saved plan): refused with --contexts. */
  oneTenant?: readonly string[];
}

export interface ManyOptions {
  contexts?: string;
  parallel?: string;
  failFast?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/**
 * One address or token for every context would send one tenant's token to another's service: a token or
 * base URL from a flag (or the environment, core/fan-out.ts) is refused with --contexts (exit 2, nothing
 * sent), as are --context and --ca-cert (one tenant's certificate authority trusted for all).
 */
const ONE_TENANT_FLAGS = ['--context', '--base-url', '--token-file', '--ca-cert'];

/** Runs `call` once per context that `options.contexts` matches; throws the fan-out's exit code (printed per context). */
export async function eachContext(ctx: CommandContext, spec: FanOutSpec & { output?: OutputSpec }, options: ManyOptions, call: (each: CommandContext) => Promise<void>): Promise<void> {
  refuseOneTenantSources(ctx, spec, options);
  const patterns = parseContextPatterns(options.contexts!);
  const parallel = parseParallel(options.parallel);
  const names = chooseContexts(patterns, storedContextNames(ctx.env));
  // A bad -o is refused once, here; the format a flag implies (apply --markdown) is the commands' to choose.
  const format = spec.output ? ctx.outputFormat(spec.output.kind) : 'text';
  if (spec.changes && !options.dryRun) await confirmContexts(ctx, names, { yes: options.yes, json: isValueFormat(format) });
  // What waits its turn beyond memory's budget goes to a file masked by the run's mask (every context's token).
  const stdout = new LabelledStdout((text) => ctx.term.out(text), format, names, (message) => ctx.term.warn(message), { mask: (text) => ctx.term.redact(text) });
  // The contexts' own signals, interrupted by the run's: on Ctrl-C each context closes its output on a
  // whole record (as alone), then the whole closes: a json array gets its `]` after every context's records.
  const interruption = new Interruption();
  let progress: ReadonlyArray<ContextOutcome<unknown>> = [];
  const forgetClosing = ctx.interruption.onCleanup(() => {
    // The run says it was interrupted, once.
    interruption.interrupt('SIGINT', { write: () => true } as unknown as NodeJS.WritableStream);
    stdout.finish();
    // Interrupted too, stderr ends with a line per context: which were done, which at work, which never started.
    for (const outcome of progress) ctx.term.info(outcomeLine(outcome, true));
  });
  const contexts = await contextsOf(ctx, names, { spec, stdout, interruption, parallel });
  const watch = (outcomes: typeof progress): void => void (progress = outcomes);
  const outcomes = await fanOut(names, { parallel, failFast: options.failFast, differs: (error) => error instanceof DifferencesFound, watch }, async (_name, index) => {
    const { each, stderr, fetched } = contexts[index]!;
    try {
      if (fetched.status === 'failed') throw fetched.error;
      await call(each);
    } catch (error) {
      if (!(error instanceof DifferencesFound)) await reportFailure(error, each);
      throw error;
    } finally {
      stdout.end(index);
      stderr.flush();
    }
  });
  forgetClosing();
  stdout.finish();
  for (const outcome of outcomes) ctx.term.info(outcomeLine(outcome));
  const code = fanOutExitCode(outcomes);
  if (code === 8) throw new DifferencesFound('differences found');
  const failed = outcomes.filter((outcome) => outcome.status === 'failed').length;
  if (code !== 0) throw new ContextsFailed(`${failed} of ${names.length} contexts failed`, code);
}

/** Each context's own CommandContext, its labelled stderr, and how fetching its token ended. */
async function contextsOf(
  ctx: CommandContext,
  names: readonly string[],
  { spec, stdout, interruption, parallel }: { spec: { output?: OutputSpec }; stdout: LabelledStdout; interruption: Interruption; parallel: number },
) {
  // One context alone may ask its own questions (a removal's) at the terminal; several never do.
  const live = names.length === 1;
  const stdin = sharedInput(ctx.term, live);
  const contexts = names.map((name, index) => {
    // Through the run's mask too, which learns every context's token: one never shows another's.
    const stderr = labelledStderr(name, { write: (text: string) => ctx.term.stderr.write(ctx.term.redact(text)) }, live, { isTTY: live && ctx.term.stderrIsTTY });
    const io: Io = { stdout: stdout.stream(index, ctx.term.stdout), stderr: stderr.stream, stdin: stdin(), env: ctx.env, clock: ctx.clock };
    // Its settings as `--context NAME` has them; its format chosen as the command alone chooses it (every
    // context the same: the same line, the same terminal), which the labels follow.
    const globals = { ...ctx.options, context: name };
    const each = new CommandContext(globals, new Terminal({ ...globals, label: name }, io, interruption), interruption, ctx.env, ctx.clock, spec.output);
    each.formatChosen = (chosen) => stdout.useFormat(chosen);
    each.readsPipesOf(ctx);
    return { each, stderr };
  });
  // Every context's token (its tokenCommand's, the OS store's) is known to every context's mask and input
  // checks before any context reads an input or prints an answer: alpha's service must not be sent, nor
  // shown, a token that only bravo fetched (contract section 13: every token scpctl can see, first). So
  // each tokenCommand runs before the first context starts, a context --fail-fast skips included.
  const learned = (token: string): void => {
    ctx.term.addSecret(token);
    for (const { each } of contexts) each.addToken(token);
  };
  for (const { each } of contexts) each.tokenLearned = learned;
  const fetched = await fanOut(names, { parallel }, async (_name, index) => {
    const { each } = contexts[index]!;
    each.learnSecrets();
    await each.prepareToken();
  });
  return contexts.map((context, index) => ({ ...context, fetched: fetched[index]! }));
}

/** A context's failure, on its own labelled stderr, as run.ts prints a run's (with a seen profile's suggestion). */
async function reportFailure(error: unknown, each: CommandContext): Promise<void> {
  const { suggestSeenProfile } = await import('./profile-suggestion.js');
  suggestSeenProfile(error, each);
  each.term.printError(error);
}

function refuseOneTenantSources(ctx: CommandContext, spec: FanOutSpec, options: ManyOptions): void {
  // The first of `flags` given, read under commander's own key for it (`--base-url` as `baseUrl`).
  const given = (flags: readonly string[], read: object): string | undefined =>
    flags.find((flag) => (read as Record<string, unknown>)[new Option(flag).attributeName()] !== undefined);
  const global = given(ONE_TENANT_FLAGS, ctx.options);
  if (global) throw new UsageError(`--contexts cannot go with ${global}: each context uses its own settings`);
  refuseOneTenantVariables(ctx.env);
  const own = given(spec.oneTenant ?? [], options);
  if (own) throw new UsageError(`--contexts cannot go with ${own}: it names one file for one tenant`);
}

/**
 * Standard input for every context: read once, by the first that asks, as any command reads it (at most the
 * names' limit, UTF-8: an endless pipe stops as it would for one), and handed to each as a stream of its
 * own. A terminal too, said to be one (no names given is still refused): contexts reading it each for
 * itself took the lines typed in turns, so one tenant got the list and another none, or part of it. Only
 * one context alone, which may ask its own questions there, is handed the terminal as it is.
 */
function sharedInput(term: Terminal, live: boolean): () => NodeJS.ReadStream {
  let whole: Promise<Buffer> | undefined;
  return () => {
    if (live && term.stdinIsTTY) return term.stdin;
    const replay = Readable.from((async function* () {
      yield await (whole ??= readInput(term.stdin));
    })(), { objectMode: false });
    return Object.assign(replay, { isTTY: term.stdinIsTTY }) as unknown as NodeJS.ReadStream;
  };
}
