// connectAll(): many tenants from a program (contract section 16), as `--contexts` runs them from the shell:
// the same patterns, order, concurrency, fail-fast and exit-code rule (core/fan-out.ts), and each context
// resolved as connect({ context }) resolves it, so its own base URL, token, connections and rate.
import { chooseContexts, fanOut, fanOutExitCode, parseContextPatterns, parseParallel, refuseOneTenantVariables } from '../core/fan-out.js';
import { UsageError } from '../errors.js';
import { storedContextNames } from '../settings/resolve.js';
import { environmentOf, resolveFromEnvironment, type Resolved } from './connect.js';
import { connectResolved, libraryError, run, type Scpctl } from './scpctl.js';
import type { ConnectAllOptions, ContextOutcome, Tenants } from './public.js';

export function connectAll(patterns: string | readonly string[], options: ConnectAllOptions = {}): Promise<Tenants> {
  return run([], async () => {
    const given = options as Record<string, unknown>;
    for (const key of ['baseUrl', 'token', 'tokenFile', 'context', 'caCert']) {
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
        const resolved = await resolveEach(contexts, parallel, (context) => resolveFromEnvironment({ ...connecting, env, context }));
        const outcomes = await fanOut(contexts, { parallel, failFast }, async (_context, index) => {
          const tenant = resolved[index]!;
          if ('error' in tenant) throw tenant.error;
          return work(connectResolved(tenant, connecting));
        });
        return { outcomes: outcomes.map(publicOutcome<R>), exitCode: fanOutExitCode(outcomes) };
      },
    };
  });
}

/**
 * Every context resolved (its tokenCommand run, its OS store entry read) before any works, and each told
 * every token: alpha's names or answers can then neither carry to alpha's service, nor show, a token only
 * bravo fetched (contract section 13). A context that cannot be resolved fails alone, when its turn comes.
 */
async function resolveEach(contexts: readonly string[], parallel: number, resolve: (context: string) => Promise<Resolved>): Promise<Array<Resolved | { error: unknown }>> {
  const resolved = await fanOut(contexts, { parallel }, resolve);
  const every = resolved.flatMap((outcome) => (outcome.status === 'ok' ? outcome.value!.tokens : []));
  return resolved.map((outcome) => (outcome.status === 'ok' ? { ...outcome.value!, tokens: [...new Set([...outcome.value!.tokens, ...every])] } : { error: outcome.status === 'failed' ? outcome.error : undefined }));
}

function publicOutcome<R>({ context, ...outcome }: Awaited<ReturnType<typeof fanOut<R>>>[number]): ContextOutcome<R> {
  if (outcome.status === 'failed') return { context, status: 'failed', exitCode: outcome.exitCode, error: libraryError(outcome.error, []) };
  return outcome.status === 'ok' ? { context, status: 'ok', value: outcome.value as R } : { context, status: 'skipped' };
}
