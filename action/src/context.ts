// What a run of the action is given: its inputs (INPUT_* through @actions/core) and the runner's facts
// (GITHUB_* variables, the event's payload). The token is registered with the runner's mask before anything
// else is read, so no line the runner prints can show it.
import * as core from '@actions/core';
import { readFileSync } from 'node:fs';
import { UsageError } from '../../src/errors.js';

export const MODES = ['plan', 'apply', 'drift'] as const;
export type Mode = (typeof MODES)[number];

export interface Inputs {
  mode: Mode;
  manifest: string;
  baseUrl: string;
  token: string;
  githubToken: string;
  allowUnreviewed: boolean;
}

/** The parts of an event payload the action reads; anything else in it is ignored. */
export interface EventPayload {
  pull_request?: { number?: number; head?: { sha?: string; repo?: { full_name?: string } | null }; base?: { repo?: { full_name?: string } } };
  after?: string;
}

export interface Runner {
  eventName: string;
  event: EventPayload;
  repository: string;
  owner: string;
  repo: string;
  sha: string;
  apiUrl: string;
  summaryFile?: string;
  /** This run's page (its job summary and logs), when the runner says which run this is. */
  runUrl?: string;
}

/** The secrets first: registered with the runner's mask at once, then the rest. */
export function readSecrets(): { token: string; githubToken: string } {
  const token = core.getInput('token');
  if (token) core.setSecret(token);
  const githubToken = core.getInput('github-token');
  if (githubToken) core.setSecret(githubToken);
  return { token, githubToken };
}

export function readInputs(secrets: { token: string; githubToken: string }): Inputs {
  const mode = core.getInput('mode');
  if (!(MODES as readonly string[]).includes(mode)) throw new UsageError(`mode must be one of ${MODES.join(', ')} (it is "${mode}")`);
  const allow = core.getInput('allow-unreviewed') || 'false';
  // The YAML 1.2 booleans GitHub's own getBooleanInput takes: true, True, TRUE and the same of false.
  if (!/^(true|True|TRUE|false|False|FALSE)$/.test(allow)) throw new UsageError(`allow-unreviewed must be true or false (it is "${allow}")`);
  return {
    mode: mode as Mode,
    manifest: core.getInput('manifest') || 'scpctl.yaml',
    baseUrl: core.getInput('base-url'),
    ...secrets,
    allowUnreviewed: allow.toLowerCase() === 'true',
  };
}

export function readRunner(env: NodeJS.ProcessEnv): Runner {
  const repository = env.GITHUB_REPOSITORY ?? '';
  const [owner, repo] = repository.split('/');
  if (!owner || !repo) throw new UsageError('GITHUB_REPOSITORY is not set (OWNER/REPO): run the action in a GitHub workflow');
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    event: readEvent(env.GITHUB_EVENT_PATH),
    repository,
    owner,
    repo,
    sha: env.GITHUB_SHA ?? '',
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    summaryFile: env.GITHUB_STEP_SUMMARY || undefined,
    runUrl: runUrlOf(env, repository),
  };
}

/** The run's page, from the runner's own variables; anything unlike a URL is no link in a comment. */
function runUrlOf(env: NodeJS.ProcessEnv, repository: string): string | undefined {
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const [id, attempt] = [env.GITHUB_RUN_ID ?? '', env.GITHUB_RUN_ATTEMPT || '1'];
  if (!/^https:\/\/[\w.:-]+(\/[\w.-]+)*$/.test(server) || !/^[\w.-]+\/[\w.-]+$/.test(repository) || !/^\d+$/.test(id) || !/^\d+$/.test(attempt)) return undefined;
  return `${server}/${repository}/actions/runs/${id}/attempts/${attempt}`;
}

function readEvent(path: string | undefined): EventPayload {
  if (!path) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return parsed !== null && typeof parsed === 'object' ? (parsed as EventPayload) : {};
  } catch {
    throw new UsageError('GITHUB_EVENT_PATH does not hold the event as JSON');
  }
}

/** A pull request from a fork: its runs get no secrets, so there is no token to plan with. */
export function isFork(event: EventPayload): boolean {
  const pull = event.pull_request;
  const head = pull?.head?.repo?.full_name;
  return pull !== undefined && head !== pull.base?.repo?.full_name;
}
