// connectAll(): many tenants from a program (contract section 16), as `--contexts` runs them from the shell:
// the same patterns, order, concurrency, fail-fast and exit-code rule (core/fan-out.ts), and each context
// connected as connect({ context }) connects it, so its own base URL, token, connections and rate.
import { chooseContexts, fanOut, fanOutExitCode, parseContextPatterns, parseParallel, refuseOneTenantVariables } from '../core/fan-out.js';
import { UsageError } from '../errors.js';
import { storedContextNames } from '../settings/config-file.js';
import { environmentOf } from './connect.js';
import { connect, libraryError, type Scpctl } from './scpctl.js';
import type { ConnectAllOptions, ContextOutcome, Tenants } from './public.js';

export type { ConnectAllOptions, Tenants };

/** The contexts `patterns` match (globs, `!` excludes), in name order, and a way to run work on each. */
export async function connectAll(patterns: string | readonly string[], options: ConnectAllOptions = {}): Promise<Tenants> {
  try {
    const given = options as Record<string, unknown>;
    for (const key of ['baseUrl', 'token', 'tokenFile', 'context']) {
      if (given[key] !== undefined) throw new UsageError(`connectAll() takes no ${key}: each context uses its own settings`);
    }
    const env = environmentOf(options);
    refuseOneTenantVariables(env, 'connectAll()');
    const parsed = parseContextPatterns(typeof patterns === 'string' ? patterns : patterns.join(','), 'connectAll()');
    const parallel = parseParallel(options.parallel, 'parallel');
    const contexts = chooseContexts(parsed, storedContextNames(env), 'connectAll()');
    const { parallel: _parallel, failFast, ...connecting } = options;
    return {
      contexts,
      async each<R>(work: (scpctl: Scpctl) => Promise<R>) {
        const outcomes = await fanOut(contexts, { parallel, failFast }, async (context) => {
          const scpctl = await connect({ ...connecting, env, context });
          try {
            return await work(scpctl);
          } finally {
            await scpctl.close();
          }
        });
        return { outcomes: outcomes.map(publicOutcome<R>), exitCode: fanOutExitCode(outcomes) };
      },
    };
  } catch (error) {
    throw libraryError(error, []);
  }
}

function publicOutcome<R>(outcome: Awaited<ReturnType<typeof fanOut<R>>>[number]): ContextOutcome<R> {
  switch (outcome.status) {
    case 'ok':
      return { context: outcome.context, status: 'ok', value: outcome.value as R };
    case 'failed':
      return { context: outcome.context, status: 'failed', exitCode: outcome.exitCode, error: libraryError(outcome.error, []) };
    default:
      return { context: outcome.context, status: 'skipped' };
  }
}
