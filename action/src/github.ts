// The GitHub REST calls the action makes, a dozen, each a JSON request through undici's fetch: @octokit/core
// did no more for them than fill a path and parse an answer, and its types were 7 s of every type check
// (@octokit/openapi-types); @actions/github's REST plugins are 1.2 MB of routes besides.
// Every call goes to GITHUB_API_URL with the github-token; the service's token never reaches this module.
import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { proxyInEffect } from '../../src/api/proxy-env.js';
import { capMessage, visible } from '../../src/core/service-text.js';
import { checkedUrl } from '../../src/library/policy.js';
import { neutralizeEnvTraps } from '../../src/settings/env-traps.js';

export interface Comment {
  id: number;
  body: string;
  login: string;
  /** When it was last written (GitHub's `updated_at`, ISO 8601). */
  updatedAt: string;
}

export interface Issue {
  number: number;
  body: string;
  login: string;
}

export interface MergedPull {
  number: number;
  headSha: string;
  /** When it was merged (GitHub's `merged_at`, ISO 8601). */
  mergedAt: string;
}

/** The comments and issues read: enough for any pull request a person reviews, bounded for one that is not. */
const MAX_PAGES = 30;

/** Tries of one call, and the longest wait between two (a primary rate limit's reset an hour away fails at once). */
const ATTEMPTS = 4;
const MAX_WAIT_MS = 60_000;

/** A call GitHub refused (its status and headers kept for the retry rule), or that nothing answered (no status). */
export class GitHubError extends Error {
  constructor(message: string, readonly status: number | undefined, readonly headers: Readonly<Record<string, string>>, readonly host: string) {
    super(message);
  }
}

/**
 * How long to wait before sending a failed call again, or undefined when it must not be. A rate limit (429, or
 * 403 with retry-after or no requests left) refused the call, so any call is sent again, after retry-after or
 * the limit's reset; a 5xx, or no answer, may come after the change was made, so only a GET or a PATCH (the
 * same body twice is one change) is, after 1, 2, 4 s: a POST sent twice could post two comments.
 */
export function retryWait(method: string, error: GitHubError, attempt: number, now = Date.now()): number | undefined {
  const { status, headers } = error;
  const retryAfter = headers['retry-after'] === undefined ? undefined : Number(headers['retry-after']) * 1000;
  const reset = headers['x-ratelimit-reset'] === undefined ? undefined : Number(headers['x-ratelimit-reset']) * 1000 - now;
  const limited = rateLimited(error);
  const passing = (status === undefined || status >= 500) && method !== 'POST';
  if (!limited && !passing) return undefined;
  const wait = retryAfter ?? (limited ? reset : undefined) ?? 1000 * 2 ** attempt;
  return Number.isFinite(wait) && wait <= MAX_WAIT_MS ? Math.max(0, wait) : undefined;
}

/** A rate limit refused the call (429, or 403 with retry-after or no requests left): no answer about the call itself. */
function rateLimited({ status, headers }: GitHubError): boolean {
  return status === 429 || (status === 403 && (headers['retry-after'] !== undefined || String(headers['x-ratelimit-remaining']) === '0'));
}

/** The login of the github-token when GET /user cannot tell (the workflow's GITHUB_TOKEN is an installation's). */
export const ACTIONS_BOT = 'github-actions[bot]';

type Query = Record<string, string | number>;

export class GitHub {
  private readonly base: string;
  private readonly fetch: typeof undiciFetch;
  private who?: Promise<string>;

  /**
   * `env`: the runner's, for its proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, chosen as the service's calls choose
   * theirs); the github-token, like the service's, never crosses a proxy or the network over plain http.
   */
  constructor(apiUrl: string, private readonly githubToken: string, private readonly owner: string, private readonly repo: string, env: NodeJS.ProcessEnv) {
    const proxyEnv = { ...env };
    neutralizeEnvTraps(proxyEnv);
    this.base = checkedUrl(apiUrl, 'GITHUB_API_URL', proxyEnv).href.replace(/\/+$/, '');
    this.fetch = fetchThroughProxy(proxyEnv);
  }

  /**
   * One call: `path` under the repository (or absolute, from `/`), a GET's query, a POST's or PATCH's JSON body;
   * the answer's JSON. Many pull requests planning at once meet GitHub's secondary rate limits and its passing
   * 502s: those are waited out (retryWait).
   */
  private async call<T>(method: 'GET' | 'POST' | 'PATCH', path: string, query: Query = {}, body?: object): Promise<T> {
    const url = new URL(`${this.base}${path.startsWith('/') ? path : `/repos/${enc(this.owner)}/${enc(this.repo)}/${path}`}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.send<T>(method, url, body);
      } catch (error) {
        const wait = error instanceof GitHubError && attempt + 1 < ATTEMPTS ? retryWait(method, error, attempt) : undefined;
        if (wait === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  private async send<T>(method: string, url: URL, body: object | undefined): Promise<T> {
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json', authorization: `token ${this.githubToken}`, 'user-agent': 'scpctl-action', 'x-github-api-version': '2022-11-28',
    };
    if (body) headers['content-type'] = 'application/json; charset=utf-8';
    const origin = new URL(this.base).origin;
    for (let hop = 0; ; hop++) {
      const answer = await this.answer(url, { method, headers, body: body && JSON.stringify(body), redirect: 'manual' });
      const { status } = answer.response;
      const location = status >= 300 && status < 400 ? answer.response.headers.get('location') : null;
      if (location === null) return parsed<T>(answer, url);
      // GitHub's own (a renamed repository's 301 or 307) stays on its origin; one elsewhere, or to plain http,
      // is followed by nothing: neither the token, nor the plan, nor trust in its answer leaves GITHUB_API_URL's origin.
      const next = URL.canParse(location, url.href) ? new URL(location, url) : undefined;
      if (next?.origin !== origin || hop >= MAX_REDIRECTS) {
        throw new GitHubError(next?.origin === origin ? 'too many redirects' : 'a redirect to another origin, not followed', status, Object.fromEntries(answer.response.headers), url.host);
      }
      url = next;
    }
  }

  /** One request and its whole answer, at most MAX_ANSWER_BYTES of it (a gigabyte, or an endless one, is refused). */
  private async answer(url: URL, init: Parameters<typeof undiciFetch>[1]): Promise<Answer> {
    let response: Answer['response'];
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      response = await this.fetch(url, init);
      for await (const chunk of response.body ?? []) {
        size += chunk.byteLength;
        if (size > MAX_ANSWER_BYTES) break;
        chunks.push(chunk);
      }
    } catch (error) {
      // Refused, unresolved, a certificate nothing vouches for, the 30 s deadline: no answer at all.
      const cause = (error as { cause?: { message?: unknown } }).cause?.message;
      throw new GitHubError(`${(error as Error).message}${typeof cause === 'string' ? ` (${cause})` : ''}`, undefined, {}, url.host);
    }
    if (size > MAX_ANSWER_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      throw new GitHubError(`an answer over ${MAX_ANSWER_BYTES / 2 ** 20} MiB`, response.status, Object.fromEntries(response.headers), url.host);
    }
    return { response, text: Buffer.concat(chunks).toString('utf8') };
  }

  /** A GET that answers a list: anything else (an object, nothing) is GitHub's failure, not a TypeError. */
  private async list<T>(path: string, query: Query): Promise<T[]> {
    const data = await this.call<unknown>('GET', path, query);
    if (!Array.isArray(data)) throw new GitHubError('not the list asked for', 200, {}, new URL(this.base).host);
    return data as T[];
  }

  /** Who the github-token writes as: the comments and issues the action trusts are that user's alone. */
  login(): Promise<string> {
    this.who ??= this.call<{ login: string }>('GET', '/user').then(
      ({ login }) => login,
      (error: unknown) => {
        // An installation token (the workflow's own) may not read /user: its comments are github-actions[bot]'s.
        // Any other failure (a rate limit's 403 too) is no answer: taken for the bot's, a personal token's own comments would be missed.
        if (error instanceof GitHubError && error.status === 403 && !rateLimited(error)) return ACTIONS_BOT;
        throw error;
      },
    );
    return this.who;
  }

  async comments(issue: number): Promise<Comment[]> {
    const out: Comment[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const data = await this.list<GitHubComment>(`issues/${num(issue)}/comments`, { per_page: 100, page });
      for (const c of data) out.push({ id: Number(c.id), body: c.body ?? '', login: c.user?.login ?? '', updatedAt: c.updated_at ?? '' });
      if (data.length < 100) break;
    }
    return out;
  }

  async comment(issue: number, body: string): Promise<void> {
    await this.call('POST', `issues/${num(issue)}/comments`, {}, { body });
  }

  async updateComment(id: number, body: string): Promise<void> {
    await this.call('PATCH', `issues/comments/${num(id)}`, {}, { body });
  }

  /** The pull requests merged into the branch by this commit (a merge, squash or rebase of theirs). */
  async mergedPulls(sha: string): Promise<Array<MergedPull & { mergeSha: string | null }>> {
    const data = await this.list<GitHubPull>(`commits/${enc(sha)}/pulls`, { per_page: 100 });
    return data.filter((p) => p.merged_at).map((p) => ({ number: p.number, headSha: p.head?.sha ?? '', mergedAt: p.merged_at!, mergeSha: p.merge_commit_sha ?? null }));
  }

  async openIssues(label: string): Promise<Issue[]> {
    const out: Issue[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const data = await this.list<GitHubIssue>('issues', { labels: label, state: 'open', per_page: 100, page });
      for (const i of data) if (!i.pull_request) out.push({ number: i.number, body: i.body ?? '', login: i.user?.login ?? '' });
      if (data.length < 100) break;
    }
    return out;
  }

  /** The label, made when the repository has none yet (a label named at an issue's creation needs push access otherwise). */
  async ensureLabel(name: string, description: string): Promise<void> {
    try {
      await this.call('GET', `labels/${enc(name)}`);
    } catch (error) {
      if (!(error instanceof GitHubError) || error.status !== 404) throw error;
      await this.call('POST', 'labels', {}, { name, color: 'd93f0b', description });
    }
  }

  async createIssue(title: string, body: string, label: string): Promise<number> {
    return (await this.call<{ number: number }>('POST', 'issues', {}, { title, body, labels: [label] })).number;
  }

  async updateIssue(issue: number, change: { body?: string; state?: 'open' | 'closed'; title?: string }): Promise<void> {
    await this.call('PATCH', `issues/${num(issue)}`, {}, change);
  }
}

const enc = encodeURIComponent;

/**
 * An issue's or comment's number as a path segment. It comes from the event payload or an answer, typed a number
 * but read unchecked: a string there (`7/../../../user`) would reach another path of GitHub's with the token.
 */
function num(n: number): string {
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`not an issue or comment number: ${capMessage(visible(JSON.stringify(n) ?? String(n)), 60)}`);
  return String(n);
}

/** GitHub's largest page (100 comments of 65,536 characters, each up to 4 bytes) is under 30 MiB. */
const MAX_ANSWER_BYTES = 64 * 2 ** 20;
const MAX_REDIRECTS = 5;

interface Answer {
  response: Awaited<ReturnType<typeof undiciFetch>>;
  text: string;
}

/** The answer's JSON, or the failure it says (its message shown as text: it is any party's). */
function parsed<T>({ response, text }: Answer, url: URL): T {
  const headers = (): Record<string, string> => Object.fromEntries(response.headers);
  let value: unknown;
  try {
    value = text === '' ? undefined : JSON.parse(text);
  } catch {
    // A proxy's or a captive portal's page: said so, never quoted (it is any party's text).
    throw new GitHubError("an answer that is not JSON (a proxy's page?)", response.status, headers(), url.host);
  }
  if (response.status >= 400) {
    const said = (value as { message?: unknown } | undefined)?.message;
    throw new GitHubError(capMessage(visible(typeof said === 'string' ? said : response.statusText)), response.status, headers(), url.host);
  }
  return value as T;
}

/** The fields of GitHub's answers read here (and nothing trusts them beyond these). */
interface GitHubComment {
  id: number;
  body?: string | null;
  user?: { login?: string } | null;
  updated_at?: string;
}
interface GitHubPull {
  number: number;
  head?: { sha?: string } | null;
  merged_at?: string | null;
  merge_commit_sha?: string | null;
}
interface GitHubIssue {
  number: number;
  body?: string | null;
  user?: { login?: string } | null;
  pull_request?: unknown;
}

/** How long one call to GitHub may take: a connection that hangs (a proxy dropping it) must not hold the job for hours. */
const GITHUB_TIMEOUT_MS = 30_000;

/**
 * fetch, through the proxy in effect for each URL (undici's ProxyAgent), else direct; each call bounded. Both
 * say rejectUnauthorized outright, as the service's transport does: Node's own fetch takes an inherited
 * NODE_TLS_REJECT_UNAUTHORIZED=0 and would hand the github-token to any host that answers for GitHub's.
 */
function fetchThroughProxy(env: NodeJS.ProcessEnv): typeof undiciFetch {
  const agents = new Map<string, Dispatcher>();
  const agentFor = (proxy: string | undefined): Dispatcher => {
    let agent = agents.get(proxy ?? '');
    if (!agent) {
      agent = proxy === undefined
        ? new Agent({ connect: { rejectUnauthorized: true } })
        : new ProxyAgent({ uri: proxy, requestTls: { rejectUnauthorized: true }, proxyTls: { rejectUnauthorized: true } });
      agents.set(proxy ?? '', agent);
    }
    return agent;
  };
  return (url, init) => {
    const dispatcher = agentFor(proxyInEffect(new URL(String(url)), env)?.value);
    return undiciFetch(url, { ...init, signal: AbortSignal.timeout(GITHUB_TIMEOUT_MS), dispatcher });
  };
}
