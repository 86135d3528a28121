// Doctor's results: each check's outcome line, collected in order, printed as it comes (text) or at the
// end (JSON), and the exit code of the first failure.
import { ScpctlError } from '../../errors.js';
import { NO_COLOUR, type Palette } from '../../output/palette.js';
import { visible } from '../../core/service-text.js';

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

  skip(name: string, because: string): void {
    this.add({ name, ok: false, status: 'skip', detail: `skipped: ${because}` });
  }

  private add(result: CheckResult): void {
    this.results.push(result);
    this.print?.(result);
  }
}

export function formatCheck(result: CheckResult, paint: Palette = NO_COLOUR): string {
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

export function hintOf(error: unknown): string | undefined {
  return error instanceof ScpctlError ? error.hint : undefined;
}
