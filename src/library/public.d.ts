// The types of `import { connect, ScpctlError } from 'scpctl'` (contract section 14), shipped as the package's
// types (dist/library.d.mts, dist/library.d.cts). Kept by hand, small and readable, and the one declaration of
// the options and results: the implementation imports them from here, and src/library/index.ts assigns it to
// these declarations, so `tsc` fails when the two part.

/** What kind of failure; the exit code (contract section 6) says the same as a number. */
export type ScpctlErrorKind = 'usage' | 'auth' | 'notFound' | 'pending' | 'network' | 'protocol' | 'stale' | 'interrupted' | 'api';

/** Every failure of the library: the CLI's one line as its message, every token masked. */
export declare abstract class ScpctlError extends Error {
  protected constructor(message: string, options?: { hint?: string; cause?: unknown });
  /** The CLI's exit code for this failure: 2 usage, 3 auth, 4 not found, 5 pending, 6 network, 7 protocol, 9 stale, 130 interrupted, 1 otherwise. */
  abstract readonly exitCode: number;
  readonly kind: ScpctlErrorKind;
  /** What to do next, when there is something to say (the CLI's second line). */
  hint?: string;
  /** Usage errors: the lines that follow (every invalid name, `FILE:LINE: "name": reason`). */
  details?: string[];
  /** apply(): the outcome of every profile, when some failed. */
  profiles?: readonly ProfileOutcome[];
}

/** Names: an array, or one string; each string may hold several (`'a,b c'`: commas, spaces, newlines separate). */
export type NamesInput = Iterable<string> | string;

/** What to add to a list and delete from it to make it another. */
export interface BucketDiff {
  add: string[];
  delete: string[];
}

/** A profile's bucket list as one view read it. */
export declare class BucketList implements Iterable<string> {
  private constructor(profile: string, scanned: never, names: never);
  readonly profile: string;
  /** How many names. */
  get size(): number;
  /** The names in the service's order (a new array). */
  names(): string[];
  has(name: string): boolean;
  [Symbol.iterator](): Iterator<string>;
  /** One name a line, each ending with a newline. */
  lines(): string;
  /** The names joined by commas, as the wire carries them. */
  wire(): string;
  /** A digest of the sorted set of names (`sha256:...`): equal for the same names in any order. */
  fingerprint(): string;
  /** What to add and delete to make this list `desired`. */
  diff(desired: BucketList | Iterable<string>): BucketDiff;
}

export interface ConnectOptions {
  /** The service's base address; given, the environment and the config store are not read. */
  baseUrl?: string;
  token?: string;
  /** A file holding the token (surrounding whitespace trimmed). */
  tokenFile?: string;
  /** Without baseUrl: the config store's context (as --context). With it: the name the history keeps lists under. */
  context?: string;
  /** Seconds per request (default 30). */
  timeout?: number;
  /** Retries on network errors, 429 and 5xx (default 3). */
  retries?: number;
  /** A PEM file of an extra certificate authority. */
  caCert?: string;
  /** Versions of each list kept before a change (default 50; 0 keeps none). */
  historyKeep?: number;
  /** The folder of kept versions. */
  stateDir?: string;
  /** The environment to resolve from, in place of process.env. */
  env?: Record<string, string | undefined>;
  /** Aborting it stops every call in flight (kind `interrupted`). */
  signal?: AbortSignal;
  /** What the CLI would say on stderr (a history that cannot be written). */
  onWarning?: (message: string) => void;
}

export interface ViewOptions {
  /** Seconds to wait out a pending change (the CLI's --wait). */
  wait?: number;
}

export interface ChangeOptions extends ViewOptions {
  /** false lifts the S3 naming rules (--no-validate). */
  validate?: boolean;
  /** A result that would be empty is refused unless true (--allow-empty). */
  allowEmpty?: boolean;
  /** false: no read first, nothing kept, no guard (--no-history). */
  history?: boolean;
}

export interface ChangeResult {
  profile: string;
  operation: 'appendToBucketList' | 'deleteFromBucketList' | 'replaceBucketList' | 'modifyBucketList';
  sent: { list?: string[]; addList?: string[]; deleteList?: string[] };
  /** The service's answer, tokens masked. */
  response: unknown;
}

export interface BucketsApi {
  view(profile: string, options?: ViewOptions): Promise<BucketList>;
  append(profile: string, names: NamesInput, options?: ChangeOptions): Promise<ChangeResult>;
  delete(profile: string, names: NamesInput, options?: ChangeOptions): Promise<ChangeResult>;
  replace(profile: string, names: NamesInput, options?: ChangeOptions): Promise<ChangeResult>;
  modify(profile: string, change: { add?: NamesInput; delete?: NamesInput }, options?: ChangeOptions): Promise<ChangeResult>;
}

/** A manifest as a value: what a manifest file holds (contract section 10). */
export interface ManifestInput {
  profiles: Record<string, { buckets?: string[] | string; files?: string[]; allowEmpty?: boolean }>;
}

export interface ProfileOutcome {
  profile: string;
  add: string[];
  delete: string[];
  /** The fingerprint of the live list the plan was made from. */
  fingerprint?: string;
  status: 'planned' | 'unchanged' | 'applied' | 'failed';
  error?: { message: string; exitCode: number; kind: ScpctlErrorKind };
}

export interface Plan {
  readonly profiles: readonly ProfileOutcome[];
  readonly hasChanges: boolean;
}

export interface ReportOptions {
  type?: string;
  groupby?: string;
  period?: string | number;
  start?: string | number | Date;
  end?: string | number | Date;
  insertionStart?: string | number;
  insertionEnd?: string | number;
  query?: string;
  /** Each `FIELD=VALUE` (or an object of them) becomes `FIELD eq VALUE`, joined with ` and ` to query. */
  where?: string[] | Record<string, string>;
  alertType?: string;
  limit?: number;
  skip?: number;
  /** Every page, to the first empty one, over a window fixed at the start. */
  all?: boolean;
}

/** A report record; integers too large for a number come as bigint. */
export type ReportRecord = { [key: string]: unknown };

export interface Scpctl {
  readonly buckets: BucketsApi;
  /** The context in use. */
  readonly context: string;
  /** The base URL in use, normalised. */
  readonly baseUrl: string;
  /** Reads every profile of a manifest (a value, or a YAML or JSON file) and diffs each; sends nothing. */
  plan(manifest: ManifestInput | string, options?: { allowOutsideFiles?: boolean; wait?: number }): Promise<Plan>;
  /**
   * The live lists of the profiles as a manifest (what `scpctl apply --export` prints): `plan()` of it right
   * after finds nothing to change. An empty list comes with `allowEmpty: true`. All or nothing: the first
   * profile that fails (in the order given) is thrown; a live name a manifest cannot hold (not a valid S3
   * name, or holding a known token) is a usage error naming it.
   */
  export(profiles: readonly string[] | string, options?: { wait?: number }): Promise<ManifestInput>;
  /** One modify per planned profile, history kept, at the client-side rate; throws the first failure. */
  apply(plan: Plan, options?: { wait?: number }): Promise<Plan>;
  report(options?: ReportOptions): AsyncIterable<ReportRecord>;
  /** Nothing is held open between calls today; a program that closes what it opened keeps working if that changes. */
  close(): Promise<void>;
}

export declare function connect(options?: ConnectOptions): Promise<Scpctl>;

/**
 * The plan's digest (`sha256:...`): a hash of each profile's planned additions and deletions and its live
 * list's fingerprint, in manifest order. Two plans with the same digest make the same changes to the same live
 * lists; the GitHub Action applies at merge only the plan whose digest was reviewed.
 */
export declare function planDigest(plan: Plan): string;

/** connectAll(): connect()'s options for every context (each uses its own base URL and token). */
export interface ConnectAllOptions extends Omit<ConnectOptions, 'baseUrl' | 'token' | 'tokenFile' | 'context' | 'caCert'> {
  /** At most this many contexts at work at once in each() (default 4, 1 to 32). */
  parallel?: number;
  /** each(): start no other context once one has failed (those not started are `skipped`). */
  failFast?: boolean;
}

/** How one context's work ended, in each(). */
export type ContextOutcome<R> =
  | { context: string; status: 'ok'; value: R }
  /** `error`: the failure; one of `work`'s own that is not a ScpctlError comes as kind `api` (exit 1), its message kept. */
  | { context: string; status: 'failed'; exitCode: number; error: ScpctlError }
  | { context: string; status: 'skipped' };

/** The contexts a set of patterns matched. */
export interface Tenants {
  /** In context-name order. */
  readonly contexts: readonly string[];
  /**
   * Runs `work` once per context with its own connection, at most `parallel` at once; a
   * failing context does not stop the others unless `failFast`. `exitCode`: the first failing context's
   * (in name order), else 0, as the CLI's --contexts exits.
   */
  each<R>(work: (scpctl: Scpctl) => Promise<R>): Promise<{ outcomes: Array<ContextOutcome<R>>; exitCode: number }>;
}

/**
 * The contexts of the config store that `patterns` match (globs with `*` and `?` over context names, `!`
 * in front excludes; an array or one comma-separated string). A pattern that matches nothing, and a token or
 * base URL or CA in the environment (SCPCTL_TOKEN, SCPCTL_TOKEN_FILE, SCPCTL_BASE_URL, SCPCTL_CA_CERT), are usage errors.
 */
export declare function connectAll(patterns: string | readonly string[], options?: ConnectAllOptions): Promise<Tenants>;
