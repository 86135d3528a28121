// The action's entry (action/action.yml, bundled to action/dist/index.cjs by scripts/build-action.mjs): reads
// the secrets first and hands them to the runner's mask, runs the mode, and sets the outputs. A failure is one
// masked line (core.setFailed) and the exit code of contract section 6, in `exit-code` and as the process's.
import * as core from '@actions/core';
import { randomUUID } from 'node:crypto';
import { ApiError, NetworkError, ScpctlError, UsageError, messageOf } from '../../src/errors.js';
import { maskSecret } from '../../src/core/secrets.js';
import { visible } from '../../src/core/service-text.js';
import { GitHub, GitHubError } from './github.js';
import { readInputs, readRunner, readSecrets } from './context.js';
import { runMode, type Job } from './modes.js';

async function main(): Promise<number> {
  const secrets = readSecrets();
  const mask = (text: string): string => maskSecret(text, [secrets.token, secrets.githubToken]);
  // A log line is one line, its control characters shown as escapes (as the CLI's stderr shows them): a file
  // name or key from a pull request holding a line break must not start a line the runner obeys as a
  // workflow command (`::warning::`, `::set-output`, `::stop-commands::`). core.setFailed and core.notice
  // escape their own text.
  const say = (line: string): void => core.info(visible(mask(line)));
  // Lines that hold what others wrote (a file or profile name, a name the service holds) are logged with the
  // runner's commands stopped: a line that starts with `::`, or holds `##[` anywhere (the older form), is a
  // command to it without any line break (`::warning::`, `##[add-mask]NAME`, which would hide a name from the log).
  const verbatim = (lines: Iterable<string>): void => {
    const resume = randomUUID();
    core.info(`::stop-commands::${resume}`);
    for (const line of lines) say(line);
    core.info(`::${resume}::`);
  };
  const out = { hasChanges: false, digest: '' };
  let exitCode = 0;
  try {
    const inputs = readInputs(secrets);
    const runner = readRunner(process.env);
    const job: Job = {
      inputs,
      runner,
      gh: new GitHub(runner.apiUrl, inputs.githubToken, runner.owner, runner.repo, process.env),
      env: process.env,
      mask,
      info: say,
      group: (title, lines) => {
        core.startGroup(visible(mask(title)));
        verbatim(lines);
        core.endGroup();
      },
      notice: (line) => core.notice(mask(line)),
      out,
    };
    await runMode(job);
  } catch (error) {
    const failure = asScpctlError(error);
    exitCode = failure.exitCode;
    core.setFailed(mask(`scpctl: ${messageOf(failure)}`));
    // The lines the CLI prints after its one: every invalid name (`FILE:LINE: "name": reason`), then the hint.
    const lines = [...(failure instanceof UsageError ? failure.details : []), ...(failure.hint ? [`hint: ${failure.hint}`] : [])];
    if (lines.length > 0) verbatim(lines);
  }
  core.setOutput('has-changes', String(out.hasChanges));
  core.setOutput('exit-code', String(exitCode));
  core.setOutput('plan-digest', out.digest);
  return exitCode;
}

/**
 * GitHub's failures are exit 1, as any other API's; no answer at all (refused, unresolved, timed out) is the
 * network's, exit 6.
 */
function asScpctlError(error: unknown): ScpctlError {
  if (error instanceof ScpctlError) return error;
  if (error instanceof GitHubError) {
    if (error.status === undefined) return new NetworkError(`cannot reach the GitHub API at ${error.host}: ${error.message}`);
    return new ApiError(`GitHub API answered ${error.status}: ${error.message}`);
  }
  return new ApiError(messageOf(error));
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
