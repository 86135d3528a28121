// Every failure scpctl can report is one of these. Each carries its exit code (contract section 6),
// and src/cli.ts is the one place that turns them into output.

/** What kind of failure, for a program that catches it (contract section 14); section 6's exit code says the same. */
export type ErrorKind = 'usage' | 'auth' | 'notFound' | 'pending' | 'network' | 'protocol' | 'stale' | 'interrupted' | 'api';

const KINDS: Readonly<Record<number, ErrorKind>> = { 2: 'usage', 3: 'auth', 4: 'notFound', 5: 'pending', 6: 'network', 7: 'protocol', 9: 'stale', 130: 'interrupted', 143: 'interrupted' };

export function errorKind(exitCode: number): ErrorKind {
  return KINDS[exitCode] ?? 'api';
}

export abstract class ScpctlError extends Error {
  abstract readonly exitCode: number;
  /** A second line that tells the user what to do next. */
  hint?: string;

  /** The exit code's meaning as a word: one table, so that a new error class cannot give a kind and a code that disagree. */
  get kind(): ErrorKind {
    return errorKind(this.exitCode);
  }

  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options?.hint;
  }
}

/** The base of the class of exit code `code`: each class below is one line of contract section 6. */
function exitingWith<Code extends number>(code: Code) {
  abstract class ExitingWith extends ScpctlError {
    readonly exitCode = code;
  }
  return ExitingWith;
}

/** 1: the API answered with an error not covered by a more specific class. */
export class ApiError extends exitingWith(1) {}

/** 1: the command ran but its result is wrong (for example `sync --verify` found a mismatch). */
export class VerificationError extends exitingWith(1) {}

/** 1: a setting that was asked for is not set (`config get KEY`). */
export class NotSetError extends exitingWith(1) {}

/** 1: the question before a removal was not answered yes: nothing was sent. */
export class NothingChanged extends exitingWith(1) {}

/** 2: the command line or its input is wrong; nothing was sent. */
export class UsageError extends exitingWith(2) {
  /** Extra lines printed after the message (for example the list of invalid names). */
  details: string[] = [];
}

/** 3: no token, or the service rejected it. */
export class AuthError extends exitingWith(3) {}

/** 4: the named profile does not exist. */
export class NotFoundError extends exitingWith(4) {
  /** The profile the request named, when the client knows it: the commands suggest a close one they have seen. */
  profile?: string;
}

/** 5: a change is pending on the profile. */
export class PendingError extends exitingWith(5) {
  /** The pending change may be our own earlier attempt, whose answer was lost. */
  mayBeOwnChange = false;
}

/** 6: the network failed, timed out, or the service kept failing after the retries. */
export class NetworkError extends exitingWith(6) {
  /**
   * Whether the request may have reached the service, so that a change may have been applied. The
   * transport says false when no attempt left this machine (refused, unresolved, TLS, no tunnel).
   */
  mayHaveArrived = true;
}

/** 7: the service answered something we cannot understand. */
export class ResponseError extends exitingWith(7) {}

/** 8: `sync --exit-code` found or applied differences. Not a failure, so nothing is printed. */
export class DifferencesFound extends exitingWith(8) {}

/** 9: `apply --plan`: the profile's live list changed since the plan was made; nothing was applied to it. */
export class PlanConflictError extends exitingWith(9) {}

/** Several things failed: the exit code is the first failure's (of its own class). */
abstract class FirstFailure extends ScpctlError {
  constructor(
    message: string,
    readonly exitCode: number,
    options?: { hint?: string },
  ) {
    super(message, options);
  }
}

/** `apply`: some profiles failed; the exit code is that of the first failure in manifest (or plan) order. */
export class ProfilesFailed extends FirstFailure {}

/** --contexts: some contexts failed, each already reported; the exit code is the first failing one's in name order. */
export class ContextsFailed extends FirstFailure {}

/** `doctor`: some checks failed; the exit code is the first failed check's, in the order of its table. */
export class ChecksFailed extends FirstFailure {}

/** 130: interrupted by SIGINT. */
export class Interrupted extends exitingWith(130) {}

export function exitCodeOf(error: unknown): number {
  return error instanceof ScpctlError ? error.exitCode : 1;
}

/** The first line of an error's message (or of whatever was thrown), for one-line reports. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
