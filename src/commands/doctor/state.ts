// What doctor's checks have found so far, and their outcome lines: each check reads what it needs from the
// state and adds what it found, so the order of the table in index.ts is the only order there is. The lines
// are collected in order, printed as each comes (text) or at the end (JSON), with the first failure's exit code.
import type { HttpResponse } from '../../api/transport.js';
import type { Route } from '../../api/probes.js';
import { ScpctlError, exitCodeOf, messageOf } from '../../errors.js';
import type { Palette } from '../../output/palette.js';
import { visible } from '../../core/service-text.js';
import type { ResolvedSettings } from '../../settings/resolve.js';
import type { CommandContext } from '../context.js';

export interface DoctorState {
  readonly ctx: CommandContext;
  settings?: ResolvedSettings;
  base?: URL;
  /** How TCP and TLS reach the service: directly, or through the proxy. */
  route?: Route;
  timeoutMs: number;
  dnsFailed?: boolean;
  reachable?: boolean;
  caFailed?: boolean;
  /** Requests can reach the service: TLS verified, or plain http on loopback. */
  secure?: boolean;
  /** The service's answer to the token check, and the local time it arrived (the clock check's). */
  answer?: { headers: HttpResponse['headers']; receivedAt: number };
}

export type CheckStatus = 'pass' | 'fail' | 'info' | 'skip';

export interface CheckResult {
  name: string;
  /** false for a failure and for a check that could not run (skipped). */
  ok: boolean;
  status: CheckStatus;
  detail: string;
  hint?: string;
}

const SYMBOLS: Record<CheckStatus, string> = { pass: '✔', fail: '✖', info: '•', skip: '-' };
const NAME_WIDTH = 16;

/** The checks made so far; in text mode each line is printed as soon as its check is done. */
export class Checks {
  readonly results: CheckResult[] = [];
  firstFailureCode: number | undefined;

  constructor(private readonly print: ((result: CheckResult) => void) | undefined) {}

  pass(name: string, detail: string): void {
    this.add({ name, ok: true, status: 'pass', detail });
  }

  info(name: string, detail: string): void {
    this.add({ name, ok: true, status: 'info', detail });
  }

  fail(name: string, detail: string, exitCode: number, hint?: string): void {
    this.firstFailureCode ??= exitCode;
    this.add({ name, ok: false, status: 'fail', detail, ...(hint ? { hint } : {}) });
  }

  /** A failure that is an error scpctl threw: its message, exit code and hint. */
  failWith(name: string, error: unknown): void {
    this.fail(name, messageOf(error), exitCodeOf(error), error instanceof ScpctlError ? error.hint : undefined);
  }

  skip(name: string, because: string): void {
    this.add({ name, ok: false, status: 'skip', detail: `skipped: ${because}` });
  }

  private add(result: CheckResult): void {
    this.results.push(result);
    this.print?.(result);
  }
}

export function formatCheck(result: CheckResult, paint: Palette): string {
  const colour = { pass: paint.green, fail: paint.red, info: paint.blue, skip: paint.dim }[result.status];
  const name = `${result.name}:`.padEnd(NAME_WIDTH);
  // Findings quote what others sent (a certificate's subject, the service's error): shown, never obeyed.
  const detail = result.status === 'skip' ? paint.dim(visible(result.detail)) : visible(result.detail);
  let line = `${colour(SYMBOLS[result.status])} ${name} ${detail}\n`;
  if (result.hint) line += `  ${' '.repeat(NAME_WIDTH)} ${paint.dim(`hint: ${visible(result.hint)}`)}\n`;
  return line;
}

export function codeOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ?? e?.message ?? String(error);
}
