// The GitHub REST calls the action makes, a handful, through @octokit/core's request (the REST endpoint
// plugins of @actions/github are 1.2 MB of routes and a second undici in the bundle for these seven calls).
// Every call goes to GITHUB_API_URL with the github-token; the service's token never reaches this module.
import { Octokit } from '@octokit/core';
import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { proxyInEffect } from '../../src/api/proxy-env.js';
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

/**
 * How long to wait before sending a failed call again, or undefined when it must not be. A rate limit (429, or
 * 403 with retry-after or no requests left) refused the call, so any call is sent again, after retry-after or
 * the limit's reset; a 5xx, or no answer (Octokit's 500), may come after the change was made, so only a GET or
 * a PATCH (the same body twice is one change) is, after 1, 2, 4 s: a POST sent twice could post two comments.
 */
export function retryWait(method: string, error: unknown, attempt: number, now = Date.now()): number | undefined {
  const status = (error as { status?: unknown }).status;
  const headers = headersOf(error);
  const retryAfter = headers['retry-after'] === undefined ? undefined : Number(headers['retry-after']) * 1000;
  const reset = headers['x-ratelimit-reset'] === undefined ? undefined : Number(headers['x-ratelimit-reset']) * 1000 - now;
  const limited = rateLimited(error);
  const passing = typeof status === 'number' && status >= 500 && method !== 'POST';
  if (!limited && !passing) return undefined;
  const wait = retryAfter ?? (limited ? reset : undefined) ?? 1000 * 2 ** attempt;
  return Number.isFinite(wait) && wait <= MAX_WAIT_MS ? Math.max(0, wait) : undefined;
}

const headersOf = (error: unknown): Record<string, unknown> => (error as { response?: { headers?: Record<string, unknown> } }).response?.headers ?? {};

/** A rate limit refused the call (429, or 403 with retry-after or no requests left): no answer about the call itself. */
function rateLimited(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  const headers = headersOf(error);
  return status === 429 || (status === 403 && (headers['retry-after'] !== undefined || String(headers['x-ratelimit-remaining']) === '0'));
}

/** The login of the github-token when GET /user cannot tell (the workflow's GITHUB_TOKEN is an installation's). */
export const ACTIONS_BOT = 'github-actions[bot]';

export class GitHub {
  private readonly octokit: Octokit;
  private who?: Promise<string>;

  /**
   * `env`: the runner's, for its proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, chosen as the service's calls choose
   * theirs); the github-token, like the service's, never crosses a proxy or the network over plain http.
   */
  constructor(apiUrl: string, githubToken: string, private readonly owner: string, private readonly repo: string, env: NodeJS.ProcessEnv) {
    const proxyEnv = { ...env };
    neutralizeEnvTraps(proxyEnv);
    const baseUrl = checkedUrl(apiUrl, 'GITHUB_API_URL', proxyEnv).href.replace(/\/+$/, '');
    this.octokit = new Octokit({ auth: githubToken, baseUrl, request: { fetch: fetchThroughProxy(proxyEnv) }, log: { debug() {}, info() {}, warn() {}, error() {} } });
    // Many pull requests planning at once meet GitHub's secondary rate limits and its passing 502s: waited out.
    this.octokit.hook.wrap('request', async (request, options) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await request(options);
        } catch (error) {
          const wait = attempt + 1 < ATTEMPTS ? retryWait(options.method, error, attempt) : undefined;
          if (wait === undefined) throw error;
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    });
  }

  /** Who the github-token writes as: the comments and issues the action trusts are that user's alone. */
  login(): Promise<string> {
    this.who ??= this.octokit.request('GET /user').then(
      ({ data }) => data.login,
      (error: unknown) => {
        // An installation token (the workflow's own) may not read /user: its comments are github-actions[bot]'s.
        // Any other failure (a rate limit's 403 too) is no answer: taken for the bot's, a personal token's own comments would be missed.
        if ((error as { status?: unknown }).status === 403 && !rateLimited(error)) return ACTIONS_BOT;
        throw error;
      },
    );
    return this.who;
  }

  async comments(issue: number): Promise<Comment[]> {
    const out: Comment[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { data } = await this.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...this.at(), issue_number: issue, per_page: 100, page });
      for (const c of data) out.push({ id: Number(c.id), body: c.body ?? '', login: c.user?.login ?? '', updatedAt: c.updated_at ?? '' });
      if (data.length < 100) break;
    }
    return out;
  }

  async comment(issue: number, body: string): Promise<void> {
    await this.octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...this.at(), issue_number: issue, body });
  }

  async updateComment(id: number, body: string): Promise<void> {
    await this.octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...this.at(), comment_id: id, body });
  }

  /** The pull requests merged into the branch by this commit (a merge, squash or rebase of theirs). */
  async mergedPulls(sha: string): Promise<Array<MergedPull & { mergeSha: string | null }>> {
    const { data } = await this.octokit.request('GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls', { ...this.at(), commit_sha: sha, per_page: 100 });
    return data.filter((p) => p.merged_at).map((p) => ({ number: p.number, headSha: p.head.sha, mergedAt: p.merged_at!, mergeSha: p.merge_commit_sha ?? null }));
  }

  async openIssues(label: string): Promise<Issue[]> {
    const out: Issue[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { data } = await this.octokit.request('GET /repos/{owner}/{repo}/issues', { ...this.at(), labels: label, state: 'open', per_page: 100, page });
      for (const i of data) if (!i.pull_request) out.push({ number: i.number, body: i.body ?? '', login: i.user?.login ?? '' });
      if (data.length < 100) break;
    }
    return out;
  }

  /** The label, made when the repository has none yet (a label named at an issue's creation needs push access otherwise). */
  async ensureLabel(name: string, description: string): Promise<void> {
    try {
      await this.octokit.request('GET /repos/{owner}/{repo}/labels/{name}', { ...this.at(), name });
    } catch (error) {
      if ((error as { status?: number }).status !== 404) throw error;
      await this.octokit.request('POST /repos/{owner}/{repo}/labels', { ...this.at(), name, color: 'd93f0b', description });
    }
  }

  async createIssue(title: string, body: string, label: string): Promise<number> {
    const { data } = await this.octokit.request('POST /repos/{owner}/{repo}/issues', { ...this.at(), title, body, labels: [label] });
    return data.number;
  }

  async updateIssue(issue: number, change: { body?: string; state?: 'open' | 'closed'; title?: string }): Promise<void> {
    await this.octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', { ...this.at(), issue_number: issue, ...change });
  }

  private at(): { owner: string; repo: string } {
    return { owner: this.owner, repo: this.repo };
  }
}

/** How long one call to GitHub may take: a connection that hangs (a proxy dropping it) must not hold the job for hours. */
const GITHUB_TIMEOUT_MS = 30_000;

/**
 * fetch, through the proxy in effect for each URL (undici's ProxyAgent), else direct; each call bounded. Both
 * say rejectUnauthorized outright, as the service's transport does: Node's own fetch takes an inherited
 * NODE_TLS_REJECT_UNAUTHORIZED=0 and would hand the github-token to any host that answers for GitHub's.
 */
function fetchThroughProxy(env: NodeJS.ProcessEnv): typeof fetch {
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
  return (input, given) => {
    const deadline = AbortSignal.timeout(GITHUB_TIMEOUT_MS);
    const init = { ...given, signal: given?.signal ? AbortSignal.any([given.signal, deadline]) : deadline };
    const url = new URL(input instanceof Request ? input.url : String(input));
    const dispatcher = agentFor(proxyInEffect(url, env)?.value);
    return undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher }) as unknown as Promise<Response>;
  };
}
