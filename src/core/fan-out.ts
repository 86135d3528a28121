// Many tenants at once (contract section 16), for the CLI's --contexts and the library's connectAll alike:
// which contexts a list of patterns names, and running one piece of work per context in context-name order,
// at most `parallel` at once, with the exit-code rule. Nothing here knows a terminal, a client or a store.
//
// The patterns are globs over context names, matched by the ten lines below rather than picomatch: a context
// name holds only letters, digits, `.`, `_` and `-` (settings/resolve.ts), so `*` and `?` are all a pattern
// needs, and any other character in one is refused as a mistake. picomatch 4.0.7 (76 KB of source, 4 to 6 ms
// to require on this machine) would also read braces, classes and extglobs, each one more way for
// `--contexts` to name a tenant the user did not mean to change.
import { UsageError, exitCodeOf, messageOf } from '../errors.js';
import { optionalInteger } from './whole-number.js';
import { mapPool } from './pool.js';

/** `--parallel` without a value; and at most this many at once (each context keeps connections open). */
export const DEFAULT_PARALLEL = 4;
export const MAX_PARALLEL = 32;

export interface ContextPattern {
  /** As written, for messages (`!staging-*`). */
  text: string;
  exclude: boolean;
  matches(name: string): boolean;
}

const PATTERN = /^[A-Za-z0-9._*?-]{1,64}$/;

/** `prod-*,!prod-eu?`: each word a glob (`*` any run of characters, `?` one), `!` in front excludes. */
export function parseContextPatterns(text: string, origin = '--contexts'): ContextPattern[] {
  const words = text.split(',').map((word) => word.trim());
  if (words.some((word) => word === '' || word === '!')) {
    throw new UsageError(`${origin}: "${text}" has an empty pattern; give context names or globs separated by commas ('*' is all)`);
  }
  return words.map((word) => {
    const exclude = word.startsWith('!');
    const glob = exclude ? word.slice(1) : word;
    if (!PATTERN.test(glob)) {
      throw new UsageError(`${origin}: "${word}" is not a context pattern (letters, digits, ".", "_", "-", with * and ? as wildcards; ! in front excludes)`);
    }
    const regex = new RegExp(`^${glob.replace(/\./g, '\\.').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
    return { text: word, exclude, matches: (name: string) => regex.test(name) };
  });
}

/**
 * The contexts the patterns choose, in context-name order: those some pattern names (every context when all
 * the patterns exclude) less those an exclusion names. A pattern that names no context is a usage error
 * listing those there are: a typo in `!staging` must not quietly leave staging in.
 */
export function chooseContexts(patterns: readonly ContextPattern[], contexts: Iterable<string>, origin = '--contexts'): string[] {
  // sort's own order, by code unit: the same on every machine (no locale).
  const names = [...new Set(contexts)].sort();
  const known = names.length === 0 ? 'there are no contexts yet (`scpctl --context NAME login` makes one)' : `the contexts are ${names.join(', ')}`;
  const idle = patterns.filter((pattern) => !names.some(pattern.matches));
  if (idle.length > 0) {
    throw new UsageError(`${origin}: ${idle.map((pattern) => `"${pattern.text}"`).join(', ')} ${idle.length === 1 ? 'matches' : 'match'} no context; ${known}`);
  }
  const including = patterns.filter((pattern) => !pattern.exclude);
  const excluding = patterns.filter((pattern) => pattern.exclude);
  const chosen = names.filter((name) => (including.length === 0 || including.some((p) => p.matches(name))) && !excluding.some((p) => p.matches(name)));
  if (chosen.length === 0) throw new UsageError(`${origin}: the exclusions leave no context; ${known}`);
  return chosen;
}

/** `--parallel N`: a whole number from 1 to MAX_PARALLEL. */
export function parseParallel(value: string | number | undefined, origin = '--parallel'): number {
  return optionalInteger(origin, value === undefined ? undefined : String(value), 1, MAX_PARALLEL) ?? DEFAULT_PARALLEL;
}

/**
 * The variables that would give every context the same token or address, sending one tenant's token to
 * another's service: refused with many contexts (exit 2, nothing sent). A blank base URL counts as unset, as
 * everywhere; a token variable set but empty is refused too (it is an error for one context already).
 */
export const ONE_TENANT_VARIABLES = ['SCPCTL_TOKEN', 'SCPCTL_TOKEN_FILE', 'SCPCTL_BASE_URL', 'SCPCTL_CA_CERT'] as const;

/** Refuses a token or base URL from the environment for many contexts, naming the variable. */
export function refuseOneTenantVariables(env: Readonly<Record<string, string | undefined>>, origin = '--contexts'): void {
  for (const variable of ONE_TENANT_VARIABLES) {
    const value = env[variable];
    if (value === undefined || (variable === 'SCPCTL_BASE_URL' && value.trim() === '')) continue;
    // One tenant's private certificate authority trusted for every other's would let whoever holds its key
    // read the others' tokens in transit; a CA every tenant needs (a company proxy's) is NODE_EXTRA_CA_CERTS.
    const why = variable === 'SCPCTL_CA_CERT'
      ? "one tenant's certificate authority would be trusted for every other's service"
      : "one token or address for many tenants would send one tenant's token to another's service";
    throw new UsageError(`${origin} cannot go with ${variable}: ${why}; nothing was sent`, {
      hint: variable === 'SCPCTL_CA_CERT'
        ? `Unset ${variable}; set each context's own (\`scpctl --context NAME config set caCert FILE\`), or NODE_EXTRA_CA_CERTS for a CA all of them need.`
        : `Unset ${variable}; each context keeps its own (\`scpctl --context NAME login\`).`,
    });
  }
}

/** How one context's work ended. */
export type ContextOutcome<R> =
  | { context: string; status: 'ok'; exitCode: 0 | 8; value: R | undefined }
  | { context: string; status: 'failed'; exitCode: number; error: unknown; message: string }
  | { context: string; status: 'skipped'; exitCode: undefined }
  /** At work still: seen only by `watch`, when a run is interrupted. */
  | { context: string; status: 'running'; exitCode: undefined };

export interface FanOutOptions {
  parallel: number;
  /** No context starts after one has failed (those not started are `skipped`). */
  failFast?: boolean;
  /** A thrown value that is an outcome rather than a failure (exit 8, differences found): its code. */
  differs?: (error: unknown) => boolean;
  /** Handed the outcomes as they come (one array, updated in place): what an interrupted run can still tell. */
  watch?: (outcomes: ReadonlyArray<ContextOutcome<unknown>>) => void;
}

/**
 * Runs `work` once per context, in the order given (context-name order), at most `parallel` at once; a
 * failure of one does not stop the others unless `failFast`. The outcomes come in the contexts' order.
 */
export async function fanOut<R>(contexts: readonly string[], options: FanOutOptions, work: (context: string, index: number) => Promise<R>): Promise<Array<ContextOutcome<R>>> {
  const outcomes: Array<ContextOutcome<R>> = contexts.map((context) => ({ context, status: 'skipped', exitCode: undefined }));
  options.watch?.(outcomes);
  let failed = false;
  await mapPool(contexts, options.parallel, async (context, index) => {
    if (failed && options.failFast) return;
    outcomes[index] = { context, status: 'running', exitCode: undefined };
    try {
      outcomes[index] = { context, status: 'ok', exitCode: 0, value: await work(context, index) };
    } catch (error) {
      if (options.differs?.(error)) outcomes[index] = { context, status: 'ok', exitCode: 8, value: undefined };
      else {
        failed = true;
        outcomes[index] = { context, status: 'failed', exitCode: exitCodeOf(error), error, message: messageOf(error) };
      }
    }
  });
  return outcomes;
}

/** The exit code of a fan-out: the first failing context's (in name order), else 8 when any differed, else 0. */
export function fanOutExitCode(outcomes: ReadonlyArray<ContextOutcome<unknown>>): number {
  const failure = outcomes.find((outcome) => outcome.status === 'failed');
  if (failure) return failure.exitCode;
  return outcomes.some((outcome) => outcome.exitCode === 8) ? 8 : 0;
}

/**
 * One line of the summary: `prod: ok`, `staging: exit 5 (change pending on finance)`, `qa: not started (--fail-fast)`;
 * `interrupted`: the run is ending on a signal, so what never started did not for that reason, and what is
 * at work may have sent its change.
 */
export function outcomeLine(outcome: ContextOutcome<unknown>, interrupted = false): string {
  switch (outcome.status) {
    case 'ok':
      return outcome.exitCode === 8 ? `${outcome.context}: exit 8 (differences)` : `${outcome.context}: ok`;
    case 'failed':
      return `${outcome.context}: exit ${outcome.exitCode} (${outcome.message})`;
    case 'skipped':
      return `${outcome.context}: not started (${interrupted ? 'interrupted' : '--fail-fast, after a failure'})`;
    case 'running':
      return `${outcome.context}: interrupted at work (its change may or may not have been made)`;
  }
}
