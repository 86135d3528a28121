// How scpctl prints an error, the one way: `scpctl: message`, details, a hint; the stack only with -v.
// run.ts prints a run's failure with it, and a run over many contexts (--contexts) each context's.
import { ContextsFailed, DifferencesFound, ScpctlError, UsageError, messageOf } from '../errors.js';
import type { Terminal } from './terminal.js';

export function printError(error: unknown, stack: string | undefined, term: Terminal): void {
  // An outcome for `sync --exit-code`, already described; or every failing context's, already printed.
  if (error instanceof DifferencesFound || error instanceof ContextsFailed) return;
  if (error instanceof ScpctlError) {
    term.error(error.message, { hint: error.hint, details: error instanceof UsageError ? error.details : undefined, stack });
    return;
  }
  term.error(`unexpected failure: ${messageOf(error)}`, stack ? { stack } : { hint: 'run again with --verbose for details' });
}
