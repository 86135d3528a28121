// `buckets history` and `buckets restore`: the versions of a list kept before each replace, sync, apply and
// restore, and putting one back through the change pipeline as sync does (change-pipeline.ts).
import { visibleLines } from '../../core/service-text.js';
import { writeListing } from '../../output/writers.js';
import { UsageError } from '../../errors.js';
import { keptNameProblems } from '../../core/kept-names.js';
import type { CommandContext } from '../context.js';
import { checkProfileName } from '../../library/buckets.js';
import { refuseEmptyList } from '../../library/guard.js';
import { parseWait, withWait, type BucketOptions } from './common.js';
import { runSingleChange } from '../change-pipeline.js';

export async function history(ctx: CommandContext, profile: string, options: { show?: string }): Promise<void> {
  checkProfileName(profile, ctx.knownTokens());
  const format = ctx.outputFormat('listing');
  const store = await ctx.historyStore();
  if (options.show !== undefined) {
    const version = await readVersion(ctx, profile, options.show);
    // The names the service once returned: shown as view shows them, never obeyed, and a token among them
    // (the service echoing one into a list) masked like any output of scpctl.
    const lines = version.names.length > 0 ? visibleLines(version.names) + '\n' : '';
    return writeListing(ctx.term, format, { head: [], rows: [], lines, value: version });
  }
  const entries = await store.list(profile);
  await writeListing(ctx.term, format, {
    head: ['ID', 'TIME', 'OPERATION', 'COUNT'],
    rows: entries.map((e) => [e.id, e.time, e.operation, String(e.count)]),
    right: new Set([3]),
    empty: `no versions of ${profile} kept (context ${ctx.settings().context.value}, in ${store.folder(profile)})`,
    value: entries,
  });
}

export type RestoreOptions = Pick<BucketOptions, 'dryRun' | 'allowEmpty' | 'exitCode' | 'wait' | 'yes'> & { to?: string };

export async function restore(ctx: CommandContext, profile: string, options: RestoreOptions): Promise<void> {
  checkProfileName(profile, ctx.knownTokens());
  const wait = parseWait(options.wait);
  if (options.to === undefined || options.to.trim() === '') throw new UsageError('restore needs the version: --to ID (see: scpctl buckets history PROFILE)');
  const format = ctx.outputFormat('change');
  const version = await readVersion(ctx, profile, options.to);
  const empty = version.names.length === 0;
  refuseEmptyList(empty, options.allowEmpty, `version ${version.id} of ${profile} is empty: restoring it would remove every bucket`);
  checkKeptNames(ctx, version);
  const client = await ctx.client();
  const live = await withWait(ctx, profile, wait, async () => (await client.viewList(profile)).names());
  await runSingleChange(ctx, client, profile, live, version.names, {
    operation: 'restore',
    format,
    dryRun: options.dryRun,
    json: { version: version.id },
    say: {
      inSync: () => `${profile} already holds version ${version.id} (${version.count} names): nothing to change`,
      dryRun: (plan) => `dry run: restoring ${version.id} adds ${plan.add.length} and deletes ${plan.delete.length} in ${profile}; nothing sent`,
      applied: (plan) => `restored ${profile} to ${version.id} (${version.time}): ${plan.add.length} added, ${plan.delete.length} deleted`,
    },
    send: (action) => withWait(ctx, profile, wait, action),
    yes: options.yes,
    exitCode: options.exitCode,
  });
}

/**
 * A version's names are checked before any request, and reported as names read from a file are (section 3):
 * a version is a file on disk, and a name in it may be a stand-in the mask left, hold a token (kept by an
 * older scpctl), or hold what the comma-joined wire cannot carry.
 */
function checkKeptNames(ctx: CommandContext, version: { id: string; names: string[] }): void {
  const { lines, count } = keptNameProblems(version.names, `version ${version.id}`, ctx.knownTokens());
  if (count === 0) return;
  const error = new UsageError(`version ${version.id} holds ${count} name${count === 1 ? '' : 's'} that cannot be restored; nothing was sent`, {
    hint: 'A name kept masked (it held a token) is not the real name, nor can a name holding a token be sent: put such names back by hand, or restore another version.',
  });
  error.details = lines;
  throw error;
}

async function readVersion(ctx: CommandContext, profile: string, id: string) {
  const version = await (await ctx.historyStore()).read(profile, id.trim());
  if (!version) {
    throw new UsageError(`no version ${JSON.stringify(id)} of ${profile} in the history of context ${ctx.settings().context.value}`, {
      hint: `List the versions with: scpctl buckets history ${profile}`,
    });
  }
  return version;
}
