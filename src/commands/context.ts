// What every command gets handed (like gh's Factory): the global options, the terminal, an abort signal,
// and lazily the settings and the API client.
import { UsageError } from '../errors.js';
import type { ScpClient, TokenOrigin } from '../api/client.js';
import { makeClient } from '../library/connect.js';
import type { TransportEvent, TransportOptions } from '../api/transport.js';
import { systemClock, type Clock } from '../core/clock.js';
import { configPath, permissionWarning, readConfig } from '../settings/config-file.js';
import {
  fetchSelectedToken, fetchesToken, resolveContext, resolveSettings, type ContextToken, type ResolvedSettings, type SettingFlags,
} from '../settings/resolve.js';
import { MAX_TOKEN_FILE_BYTES, readTokenFile, MAX_CA_FILE_BYTES, readCaFile, tokenFilePath } from '../settings/secret-files.js';
import type { Session } from '../library/session.js';
import type { HistoryStore } from '../history/store.js';
import { RateLimiter, rateFromEnv } from '../api/rate-limit.js';
import { checkedBaseUrl, checkedToken, refuseUnknownContext, tokenOriginOf, visibleTokens } from '../library/policy.js';
import { statSync } from 'node:fs';
import { maskTokenParam } from '../core/secrets.js';
import type { TenantIdentity } from '../core/tenant.js';
import { Terminal, type TerminalOptions } from '../output/terminal.js';
import { FORMATS, type DataKind, type FormatOf, type OutputSpec } from '../output/formats.js';
import type { Interruption } from '../interrupt.js';

// run.ts makes its Terminal from here: one import for both at the start of a command.
export { Terminal };

/** The global options as commander reads them (commands/global-options.ts): the settings', the terminal's, and -o. */
export interface GlobalOptions extends SettingFlags, Omit<TerminalOptions, 'label'> {
  output?: string;
  json?: boolean;
}

export class CommandContext {
  private resolved?: ResolvedSettings;
  private apiClient?: ScpClient;
  private librarySession?: Session;
  /** Token and CA files that are pipes, read by preloadPipes before the settings need them. */
  private readonly pipes = new Map<string, Buffer>();
  /** Every token this run can see (learnSecrets): masked in all output, refused as a bucket name. */
  private readonly tokens = new Set<string>();
  /** The selected context's token from its tokenCommand or the OS credential store, as prepareToken fetched it. */
  contextToken?: ContextToken;

  constructor(
    readonly options: GlobalOptions,
    readonly term: Terminal,
    /** This run's signals: commands close their output on a whole record through it. */
    readonly interruption: Interruption,
    readonly env: NodeJS.ProcessEnv,
    /** This run's time: `--wait`, back-off between attempts, the rate limit, the report's "now". */
    readonly clock: Clock = systemClock,
    /** What the command declared of its output (CommandSpec.output): its kind of data and default formats. */
    private readonly output?: OutputSpec,
  ) {}

  /** Aborted on Ctrl-C or SIGTERM. */
  get signal(): AbortSignal {
    return this.interruption.signal;
  }

  /**
   * Reads a token file or CA file that is a pipe (`--token-file <(pass show x)`) on the event loop, before
   * the settings (which read synchronously) need it: a FIFO with no writer then waits without blocking,
   * and Ctrl-C and SIGTERM still stop scpctl.
   */
  async preloadPipes(): Promise<void> {
    const wanted: Array<[string | undefined, number]> = [
      [tokenFilePath(this.options, this.env), MAX_TOKEN_PIPE_BYTES],
      [this.options.caCert ?? (this.env.SCPCTL_CA_CERT || undefined), MAX_CA_FILE_BYTES + 1],
    ];
    for (const [path, limit] of wanted) {
      if (path === undefined || path.trim() === '') continue;
      try {
        if (!statSync(path).isFIFO()) continue;
      } catch {
        continue; // reading it later says what is wrong
      }
      const { readFifo } = await import('../files/read-input.js');
      this.pipes.set(path, await readFifo(path, limit));
    }
  }

  /** One context of many (--contexts) takes the pipes the run has read already: a pipe can be read only once. */
  readsPipesOf(run: CommandContext): void {
    for (const [path, bytes] of run.pipes) this.pipes.set(path, bytes);
  }

  /**
   * Makes every token this run can see known to the mask before any input is read: the one in use (flag,
   * environment, token file) and every context's in the config store. A list file that is really a token
   * file must not print the token in a `FILE:LINE` error, nor another context's. What cannot be read here
   * is left for the settings to report when a command needs them.
   */
  learnSecrets(): void {
    for (const token of visibleTokens(this.options, this.env, this.readTokenFile)) this.addToken(token);
  }

  /**
   * Fetches the selected context's token when it is not in the config file (its tokenCommand, the OS
   * credential store; settings/resolve.ts), before the command's code and any input, and makes every
   * token it printed known to the mask: a file-stored token loads nothing here, so start-up pays only a read
   * of the config file. A failure waits in the settings until a command needs the token (a --dry-run does
   * not). Commands declared `usesToken: false` skip it (command-spec.ts).
   */
  async prepareToken(): Promise<void> {
    let config;
    try {
      config = readConfig(configPath(this.env));
      const context = resolveContext(this.options, this.env, config).value;
      if (!fetchesToken(Object.hasOwn(config.contexts, context) ? config.contexts[context] : undefined)) return;
    } catch {
      return; // the settings say what is wrong
    }
    const fetched = await fetchSelectedToken(this.options, config, { env: this.env, known: this.knownTokens(), signal: this.signal });
    this.contextToken = fetched;
    for (const token of [...(fetched?.printed ?? []), ...(fetched && 'token' in fetched ? [fetched.token.value] : [])]) this.addToken(token);
  }

  /** The tokens known to this run (learnSecrets, the settings, login's new one). */
  knownTokens(): string[] {
    return [...this.tokens];
  }

  /** A token this run can see: masked in all its output, refused as a bucket name (many contexts: every context's). */
  addToken(token: string): void {
    if (this.tokens.has(token)) return;
    this.tokens.add(token);
    this.term.addSecret(token);
    this.tokenLearned?.(token);
  }

  /** Told each token this context learns (many contexts: every context's token is masked in all their output). */
  tokenLearned?: (token: string) => void;

  /** A token file as this run reads it: a pipe preloadPipes has read is taken from there. */
  readonly readTokenFile = (path: string, origin: string): string => readTokenFile(path, origin, this.pipes);

  readonly readCaFile = (path: string, origin: string): string => readCaFile(path, origin, this.pipes);

  /**
   * Settings in effect, read once; warns about a config file that others can read. A context named with
   * --context or SCPCTL_CONTEXT must exist (a typo would otherwise run with no settings, or another tenant's
   * from the environment), except for the commands that create one (`creating`: login, config set).
   */
  settings(how: { creating?: boolean } = {}): ResolvedSettings {
    if (!this.resolved) {
      const path = configPath(this.env);
      const warning = permissionWarning(path);
      if (warning) this.term.warn(warning);
      const config = readConfig(path);
      this.resolved = resolveSettings(this.options, this.env, config, this.readTokenFile, this.contextToken);
      if (!how.creating) refuseUnknownContext(this.resolved.context, config);
      if (this.resolved.token) this.addToken(this.resolved.token.value);
    }
    return this.resolved;
  }

  /** The selected context's name alone, without parsing the other settings (config commands need no more). */
  contextName(): string {
    return this.resolved?.context.value ?? resolveContext(this.options, this.env, readConfig(configPath(this.env))).value;
  }

  baseUrl(): URL {
    return checkedBaseUrl(this.settings(), this.env);
  }

  /** The tenant this run speaks to (the base URL and the token, kept inside): what plans and checkpoints are bound to. */
  async tenant(): Promise<TenantIdentity> {
    const baseUrl = this.baseUrl().href.replace(/\/$/, '');
    const token = this.token();
    // Loaded here: its hash needs node:crypto, 2.5 ms of start-up that a plain request does not pay.
    const { tenantIdentity } = await import('../core/tenant.js');
    return tenantIdentity(baseUrl, token);
  }

  token(): string {
    return checkedToken(this.settings());
  }

  /**
   * The API client, with the settings in effect; `--verbose` request lines go to stderr, token masked.
   * `pace`: a limiter for every request of the run (apply's client-side rate), given by the first caller.
   * A rejected token is named by where it came from, with the hint that fits that source.
   */
  async client(pace?: TransportOptions['limiter']): Promise<ScpClient> {
    this.apiClient ??= await this.clientFor(this.baseUrl(), this.token(), pace, tokenOriginOf(this.settings()));
    return this.apiClient;
  }

  /** A client for an address and token not (yet) in the settings, as `login` checks them. */
  async clientFor(baseUrl: URL, token: string, pace?: TransportOptions['limiter'], tokenOrigin?: TokenOrigin): Promise<ScpClient> {
    this.addToken(token);
    const settings = this.settings();
    const extraCa = settings.caCert ? [this.readCaFile(settings.caCert.value, settings.caCert.source)] : undefined;
    return makeClient(
      { baseUrl, token, tokenOrigin, alsoMasked: this.knownTokens() },
      {
        env: this.env,
        timeoutMs: settings.timeout.value * 1000,
        retries: settings.retries.value,
        extraCa,
        signal: this.signal,
        limiter: pace,
        clock: this.clock,
        // Only under --verbose: describing each answer costs a pass over its bytes.
        onEvent: this.term.verbose ? (event) => this.term.debug(transportLine(event)) : undefined,
      },
    );
  }

  /** What the library's calls take (library/session.ts): this run's clients, tokens, history, time and signal. */
  session(): Session {
    this.librarySession ??= {
      client: () => this.client(),
      // apply's client-side rate for every request of the run (the first caller gives the pace).
      pacedClient: () => this.client(new RateLimiter(rateFromEnv(this.env), this.clock)),
      tokens: () => this.knownTokens(),
      history: () => this.historyStore(),
      warn: (message) => this.term.warn(message),
      clock: this.clock,
      signal: this.signal,
    };
    return this.librarySession;
  }

  /** The history of the selected context, loaded only by the commands that keep or read a version (node:crypto and node:fs/promises are 3.5 ms of start-up). */
  async historyStore(): Promise<HistoryStore> {
    const settings = this.settings();
    const { HistoryStore, stateDir } = await import('../history/store.js');
    return new HistoryStore(stateDir(this.env), settings.context.value, settings.historyKeep.value, this.baseUrl().href, this.knownTokens());
  }

  /**
   * The output format: `--json`/`-o` if given and one of the declared kind's (output/formats.ts), else the one
   * a flag of the command implies (`apply --markdown`, `report --chart`), else the declared default for a
   * terminal or a pipe. `kind` names the command's declared kind (checked), for the type.
   */
  outputFormat<K extends DataKind>(kind: K, implied?: FormatOf<K>): FormatOf<K> {
    const declared = this.output?.kind === kind ? this.output : this.output?.alternate?.kind === kind ? this.output.alternate : undefined;
    if (declared === undefined) throw new Error(`the command declares no ${kind} output`);
    const allowed: readonly FormatOf<K>[] = FORMATS[kind];
    const requested = this.options.json ? 'json' : this.options.output;
    const format = requested ?? implied ?? ((this.term.stdoutIsTTY ? declared.terminal : declared.piped) as FormatOf<K>);
    if (!(allowed as readonly string[]).includes(format)) {
      const other = declared === this.output ? this.output.alternate : undefined;
      const also = other && (FORMATS[other.kind] as readonly string[]).includes(format) ? ` (-o ${format} is for ${other.option})` : '';
      throw new UsageError(`-o ${format} is not a format of this command; use ${allowed.join(', ')}${also}`);
    }
    this.formatChosen?.(format);
    return format as FormatOf<K>;
  }

  /** Told the format once the command has chosen it (many contexts label each format their own way). */
  formatChosen?: (format: string) => void;
}

/** One past the token file limit, so that the settings can still say the pipe held too much. */
const MAX_TOKEN_PIPE_BYTES = MAX_TOKEN_FILE_BYTES + 1;

/** A --verbose line of the transport's (the token masked in the URL). */
function transportLine(event: TransportEvent): string {
  if (event.type === 'request') return `→ POST ${maskTokenParam(event.url)} (${event.bytes} bytes body, attempt ${event.attempt})`;
  if (event.type === 'response') return `← HTTP ${event.status} (${event.bytes} bytes in ${Math.round(event.ms)} ms)`;
  return `  retrying in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason}`;
}

