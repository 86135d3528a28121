// A small local fake of the GitHub REST API, as much of it as the action calls (comments, the pull requests
// of a commit, issues, labels), on 127.0.0.1 port 0. It records every call whole (method, path, headers,
// body) so a test can show what was sent, and that the service's token never was.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface GitHubCall {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  /** When it was last written, as GitHub says it (ISO 8601); the test may set it. */
  updated_at?: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  labels: Array<{ name: string }>;
  user: { login: string; type: string };
}

export interface FakePull {
  number: number;
  merged_at: string | null;
  merge_commit_sha: string | null;
  head: { sha: string };
}

export const BOT = 'github-actions[bot]';

/**
 * An answer given instead of the route's: `html`, a proxy's page; `json`, this JSON (an error's message, the wrong
 * shape); `endless`, JSON that never ends (sent until the client hangs up); a 3xx with a `location` header, a redirect.
 */
export interface Failure {
  method: string;
  status: number;
  headers?: Record<string, string>;
  path?: string;
  html?: string;
  json?: unknown;
  endless?: boolean;
}

export class FakeGitHub {
  calls: GitHubCall[] = [];
  /** Every call since the start, reset() or not. */
  readonly everyCall: GitHubCall[] = [];
  comments = new Map<number, FakeComment[]>();
  pullsOf = new Map<string, FakePull[]>();
  issues: FakeIssue[] = [];
  labels = new Set<string>();
  /** Answers to give instead, each once, to the next call of that method (a 502, a secondary rate limit). */
  failures: Array<Failure> = [];
  /** What GET /user answers: undefined answers 403, as it does for the workflow's own GITHUB_TOKEN. */
  user: string | undefined;
  url = '';
  private nextId = 1000;
  private readonly server;
  private readonly scheme: string;

  /** `tls`: served over HTTPS with this certificate (as api.github.com is), else plain http on loopback. */
  constructor(private readonly githubToken: string, tls?: { cert: string; key: string }) {
    const handler = (request: IncomingMessage, response: ServerResponse): void => void this.handle(request, response);
    this.server = tls ? createTlsServer(tls, handler) : createServer(handler);
    this.scheme = tls ? 'https' : 'http';
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `${this.scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  reset(): void {
    this.calls = [];
    this.comments.clear();
    this.pullsOf.clear();
    this.issues = [];
    this.labels.clear();
    this.user = undefined;
    this.failures = [];
  }

  /** A comment as someone else writes it (the test's mallory). */
  addComment(issue: number, body: string, login: string): FakeComment {
    const comment = { id: this.nextId++, body, user: { login, type: 'User' }, updated_at: new Date().toISOString() };
    this.comments.set(issue, [...(this.comments.get(issue) ?? []), comment]);
    return comment;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', this.url);
    const call = { method: request.method ?? '', path: `${url.pathname}${url.search}`, headers: request.headers, body };
    this.calls.push(call);
    this.everyCall.push(call);
    const send = (status: number, value: unknown, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(value));
    };
    if (request.headers.authorization !== `token ${this.githubToken}`) return send(401, { message: 'Bad credentials' });
    // GET /user fails only when a failure names it (`path`): its 403 has a meaning of its own.
    const failure = this.failures.findIndex((f) => f.method === request.method && (f.path === undefined ? url.pathname !== '/user' : url.pathname === f.path));
    if (failure >= 0) {
      const [{ status, headers, html, json, endless }] = this.failures.splice(failure, 1) as [Failure];
      // A proxy's own page in place of GitHub's answer.
      if (html !== undefined) return void response.writeHead(status, { 'content-type': 'text/html', ...headers }).end(html);
      if (json !== undefined) return send(status, json, headers);
      if (endless) return this.endless(response);
      return send(status, { message: status === 403 ? 'You have exceeded a secondary rate limit.' : 'Server Error' }, headers);
    }
    const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    const answer = this.route(request.method ?? '', url, input);
    send(answer[0], answer[1]);
  }

  /** `[{"id":1,"body":"xxxx…` for as long as the client reads it, 1 MiB a write. */
  private endless(response: ServerResponse): void {
    const chunk = Buffer.alloc(1 << 20, 'x');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('[{"id":1,"body":"');
    const more = (): void => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once('drain', more);
    };
    response.on('close', () => response.removeAllListeners('drain'));
    more();
  }

  private route(method: string, url: URL, input: Record<string, unknown>): [number, unknown] {
    const path = url.pathname.replace(/^\/repos\/[^/]+\/[^/]+/, '');
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 30);
    const paged = <T>(items: T[]): T[] => items.slice((page - 1) * perPage, page * perPage);
    let m: RegExpExecArray | null;
    if (method === 'GET' && url.pathname === '/user') return this.user ? [200, { login: this.user }] : [403, { message: 'Resource not accessible by integration' }];
    if ((m = /^\/issues\/(\d+)\/comments$/.exec(path))) {
      const issue = Number(m[1]);
      if (method === 'GET') return [200, paged(this.comments.get(issue) ?? [])];
      const comment = { id: this.nextId++, body: String(input.body), user: { login: BOT, type: 'Bot' }, updated_at: new Date().toISOString() };
      this.comments.set(issue, [...(this.comments.get(issue) ?? []), comment]);
      return [201, comment];
    }
    if ((m = /^\/issues\/comments\/(\d+)$/.exec(path)) && method === 'PATCH') {
      const comment = [...this.comments.values()].flat().find((c) => c.id === Number(m![1]));
      if (!comment) return [404, { message: 'Not Found' }];
      comment.body = String(input.body);
      comment.updated_at = new Date().toISOString();
      return [200, comment];
    }
    if ((m = /^\/commits\/([0-9a-f]+)\/pulls$/.exec(path))) return [200, this.pullsOf.get(m[1]!) ?? []];
    if (path === '/issues' && method === 'GET') {
      const label = url.searchParams.get('labels');
      const state = url.searchParams.get('state') ?? 'open';
      return [200, paged(this.issues.filter((i) => i.state === state && (!label || i.labels.some((l) => l.name === label))))];
    }
    if (path === '/issues' && method === 'POST') {
      const issue: FakeIssue = { number: this.nextId++, title: String(input.title), body: String(input.body), state: 'open', labels: ((input.labels as string[]) ?? []).map((name) => ({ name })), user: { login: BOT, type: 'Bot' } };
      this.issues.push(issue);
      return [201, issue];
    }
    if ((m = /^\/issues\/(\d+)$/.exec(path)) && method === 'PATCH') {
      const issue = this.issues.find((i) => i.number === Number(m![1]));
      if (!issue) return [404, { message: 'Not Found' }];
      Object.assign(issue, input);
      return [200, issue];
    }
    if ((m = /^\/labels\/([^/]+)$/.exec(path)) && method === 'GET') return this.labels.has(decodeURIComponent(m[1]!)) ? [200, { name: m[1] }] : [404, { message: 'Not Found' }];
    if (path === '/labels' && method === 'POST') {
      this.labels.add(String(input.name));
      return [201, { name: input.name }];
    }
    return [404, { message: `the fake has no ${method} ${url.pathname}` }];
  }
}
