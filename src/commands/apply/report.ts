// What apply prints: the plan as text before anything is sent, and at the end the plan with its outcome as
// JSON or Markdown (also to GitHub's step summary) and the summary on stderr. A profile's names are asked
// for one profile at a time and printed in pieces: the names of a large plan are never all held at once.
import { NotPlainFile, appendPlainFile } from '../../files/plain-file.js';
import { markdownPieces, planJsonPieces, profileTextPieces, type ProfileOutline, type ProfileStatus } from '../../core/plan.js';
import { planStyle } from '../plan-style.js';
import { planOutput } from '../../output/writers.js';
import type { FormatOf } from '../../output/formats.js';
import type { CommandContext } from '../context.js';

export function printPlanText(ctx: CommandContext, work: readonly ProfileOutline[]): void {
  // What will be sent: a profile that already failed (changed since the plan, unreadable) sends nothing.
  for (const w of work) {
    if (w.status === 'failed' || (w.added === 0 && w.deleted === 0)) continue;
    for (const piece of profileTextPieces(w, w.names(), planStyle(ctx))) ctx.term.out(ctx.term.redact(piece));
  }
}

/** JSON or Markdown on stdout (with the outcome), the Markdown also to GitHub's step summary; the summary on stderr. */
/** apply's formats as output/formats.ts declares them: its table is its text. */
export type PlanFormat = Exclude<FormatOf<'plan'>, 'table'>;

export async function report(ctx: CommandContext, work: readonly ProfileOutline[], format: PlanFormat, dryRun: boolean): Promise<void> {
  const markdown = (): Generator<string> => markdownPieces(work, { applying: !dryRun, title: dryRun ? 'scpctl plan' : 'scpctl apply' });
  // The text was printed before anything was sent (printPlanText); the other formats are the writer's.
  await planOutput(ctx.term, format).end({ json: async function* () { yield* planJsonPieces(work); }, markdown });
  const summaryFile = ctx.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    // At most MARKDOWN_NAMES names of each list: small beside the plan, appended at once.
    try {
      appendPlainFile(summaryFile, ctx.term.redact(`${[...markdown()].join('')}\n`));
    } catch (error) {
      ctx.term.warn(`could not append the plan to GITHUB_STEP_SUMMARY (${error instanceof NotPlainFile ? error.message : ((error as NodeJS.ErrnoException).code ?? 'error')})`);
    }
  }
  printSummary(ctx, work, dryRun);
}

/** The closing table on stderr: applied, unchanged, failed (each failure with its reason and exit code). */
function printSummary(ctx: CommandContext, work: readonly ProfileOutline[], dryRun: boolean): void {
  const names = (status: ProfileStatus): string[] => work.filter((w) => w.status === status).map((w) => w.profile);
  const list = (items: string[]): string => (items.length > 10 ? `${items.slice(0, 10).join(', ')}, … (${items.length - 10} more)` : items.join(', '));
  const first: [string, string[]] = dryRun ? ['to change', names('planned')] : ['applied', names('applied')];
  const rows: Array<[string, string[]]> = [first, ['unchanged', names('unchanged')], ['failed', names('failed')]];
  const lines = rows.map(([label, items]) => `  ${label.padEnd(9)} ${String(items.length).padStart(4)}${items.length > 0 ? `  ${list(items)}` : ''}`);
  const changes = work.filter((w) => w.status === 'planned' || w.status === 'applied');
  const added = changes.reduce((n, w) => n + w.added, 0);
  const deleted = changes.reduce((n, w) => n + w.deleted, 0);
  const head = dryRun
    ? `dry run: ${changes.length} of ${work.length} profiles to change (${added} to add, ${deleted} to delete); nothing sent`
    : `apply: ${changes.length} of ${work.length} profiles changed (${added} added, ${deleted} deleted)`;
  // One line each: a message is one line, and what the service said in a failure is shown, not obeyed.
  for (const line of [head, ...lines]) ctx.term.info(line);
  for (const w of work) if (w.status === 'failed') ctx.term.failure(`${w.profile}: ${w.error!.message} (exit ${w.error!.exitCode})`, '  ');
}
