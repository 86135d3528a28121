// The library's face (contract section 14): connect() and what it returns. Every call runs through `run`,
// so that every failure reaches the program as a ScpctlError (exit code and kind) whose message, hint and
// details are masked of every token known; nothing here writes, prompts or exits.
import { ApiError, ProfilesFailed, ScpctlError, UsageError, errorKind } from '../errors.js';
import type { JsonObject } from '../api/response.js';
import { maskSecret } from '../core/secrets.js';
import { Buckets, rideQuietly } from './buckets.js';
import { openSession, resolveFromEnvironment, resolveGiven, type Resolved } from './connect.js';
import { exportProfiles } from './export.js';
import { loadManifest } from './manifest-file.js';
import { applyWork, firstFailure, planProfiles, type Ride, type Work } from './plan.js';
import { reportQuery, reportRecords } from './report.js';
import type { Session } from './session.js';
import type { BucketsApi, ConnectOptions, ManifestInput, Plan, ProfileOutcome, ReportOptions } from './public.js';

/** The plan's work, for apply(): kept beside the plan, never in it. */
const planned = new WeakMap<Plan, { session: Session; work: Work[] }>();

export class Scpctl {
  readonly buckets: BucketsApi;

  constructor(
    private readonly session: Session,
    readonly context: string,
    readonly baseUrl: string,
  ) {
    const buckets = new Buckets(session);
    const tokens = session.tokens();
    this.buckets = {
      view: (profile, options) => run(tokens, () => buckets.view(profile, options)),
      append: (profile, names, options) => run(tokens, () => buckets.append(profile, names, options)),
      delete: (profile, names, options) => run(tokens, () => buckets.delete(profile, names, options)),
      replace: (profile, names, options) => run(tokens, () => buckets.replace(profile, names, options)),
      modify: (profile, change, options) => run(tokens, () => buckets.modify(profile, change, options)),
    };
  }

  plan(manifest: ManifestInput | string, options: { allowOutsideFiles?: boolean; wait?: number } = {}): Promise<Plan> {
    return run(this.session.tokens(), async () => {
      const source = typeof manifest === 'string' ? { path: manifest } : { path: 'manifest', text: manifestText(manifest) };
      if (source.path === '-') throw new UsageError('plan("-"): standard input is the CLI\'s; pass the manifest as a value');
      const loaded = await loadManifest(source, this.session.tokens(), { allowOutsideFiles: options.allowOutsideFiles });
      const work = await planProfiles(await this.session.pacedClient(), loaded.profiles, this.riding(options.wait));
      const plan: Plan = { profiles: outcomes(work), hasChanges: work.some((w) => w.add.length > 0 || w.delete.length > 0) };
      planned.set(plan, { session: this.session, work });
      return plan;
    });
  }

  export(profiles: readonly string[] | string, options: { wait?: number } = {}): Promise<ManifestInput> {
    return run(this.session.tokens(), () => exportProfiles(this.session, typeof profiles === 'string' ? [profiles] : profiles, this.riding(options.wait)));
  }

  /** A profile that fails does not stop the others; then the first failure (in manifest order) is thrown. */
  apply(plan: Plan, options: { wait?: number } = {}): Promise<Plan> {
    return run(this.session.tokens(), async () => {
      const made = planned.get(plan);
      if (made === undefined || made.session !== this.session) throw new UsageError('apply() takes a plan made by plan() of the same connection');
      await applyWork(this.session, await this.session.pacedClient(), made.work, this.riding(options.wait));
      const result: Plan = { profiles: outcomes(made.work), hasChanges: plan.hasChanges };
      const failure = firstFailure(made.work);
      if (failure) throw Object.assign(new ProfilesFailed(failure.message, failure.exitCode), { profiles: result.profiles });
      return result;
    });
  }

  /** The report's records as they come: one page, or with `all` every page (at most two held). */
  report(options: ReportOptions = {}): AsyncIterable<JsonObject> {
    const { session } = this;
    return (async function* records() {
      try {
        const query = reportQuery(options, session.clock);
        yield* reportRecords(await session.client(), query, Boolean(options.all));
      } catch (error) {
        throw libraryError(error, session.tokens());
      }
    })();
  }

  /** Nothing is held open between calls (a tunnel through a proxy closes with its request): there is nothing to end. */
  async close(): Promise<void> {}

  private riding(wait: number | undefined): Ride {
    return (_profile, action) => rideQuietly(this.session, wait, action);
  }
}

export function connect(options: ConnectOptions = {}): Promise<Scpctl> {
  const tokens = [options.token ?? ''].filter(Boolean);
  return run(tokens, async () => {
    const resolved = options.baseUrl === undefined ? await resolveFromEnvironment(options) : resolveGiven({ ...options, baseUrl: options.baseUrl });
    return connectResolved(resolved, options);
  });
}

/** A Scpctl for a tenant resolved already (connectAll resolves every context, and learns every token, first). */
export function connectResolved(resolved: Resolved, options: ConnectOptions): Scpctl {
  return new Scpctl(openSession(resolved, options), resolved.context, resolved.baseUrl.href);
}

function manifestText(manifest: ManifestInput): string {
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) throw new UsageError('plan() takes a manifest ({ profiles: { ... } }) or the path of a manifest file');
  return JSON.stringify(manifest, null, 2);
}

/** The outcomes a program sees: the body to send and the live list stay beside the plan. */
function outcomes(work: readonly Work[]): ProfileOutcome[] {
  return work.map(({ body: _body, live: _live, error, ...outcome }) => ({
    ...outcome,
    error: error && { ...error, kind: errorKind(error.exitCode) },
  }));
}

export async function run<T>(tokens: readonly string[], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw libraryError(error, tokens);
  }
}

/** Any failure as a ScpctlError, its words masked of every token known (an unexpected one: exit 1, kind api). */
export function libraryError(error: unknown, tokens: readonly string[]): ScpctlError {
  const mask = (text: string): string => (tokens.length === 0 ? text : maskSecret(text, tokens));
  // An unexpected failure keeps no cause: its own words and stack would be unmasked.
  const failure = error instanceof ScpctlError ? error : new ApiError(error instanceof Error ? error.message : String(error));
  failure.message = mask(failure.message);
  if (failure.stack !== undefined) failure.stack = mask(failure.stack);
  if (failure.hint !== undefined) failure.hint = mask(failure.hint);
  if (failure instanceof UsageError) failure.details = failure.details.map(mask);
  return failure;
}
