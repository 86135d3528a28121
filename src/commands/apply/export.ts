// `scpctl apply --export PROFILE… [-o yaml|json] [--out FILE [--files DIR]]`: a manifest of the live lists,
// made by the library's export (library/export.ts, the same as `scp.export()`) and printed, or written to
// FILE with one list file per profile under DIR (export-files.ts). `apply -f` of it right after changes
// nothing. All or nothing: when any profile fails, nothing is printed or written.
import { Option } from 'commander';
import { UsageError } from '../../errors.js';
import { exportProfiles } from '../../library/export.js';
import type { Ride } from '../../library/plan.js';
import { manifestPieces } from '../../output/manifest-writer.js';
import { parseWait } from '../buckets/common.js';
import type { CommandContext } from '../context.js';
import { exportTarget, writeExport } from './export-files.js';

/** apply's options, declared here: an export reads them all, to refuse those that plan or change. */
export interface ApplyOptions {
  export?: string[];
  out?: string;
  files?: string;
  wait?: boolean | string;
  file?: string;
  plan?: string;
  dryRun?: boolean;
  savePlan?: string;
  exitCode?: boolean;
  markdown?: boolean;
  allowOutsideFiles?: boolean;
  yes?: boolean;
}

/** apply's options that plan or change (read under commander's own key for each): none of them means anything to an export. */
const NOT_WITH_EXPORT = ['-f, --file', '--plan', '--dry-run', '--save-plan', '--exit-code', '--markdown', '--allow-outside-files', '--yes'];

export async function exportManifest(ctx: CommandContext, options: ApplyOptions, riding: (wait?: number) => Ride): Promise<void> {
  const profiles = checkExportOptions(options);
  const format = ctx.outputFormat('manifest');
  const wait = parseWait(options.wait);
  const target = options.out === undefined ? undefined : exportTarget(options.out, options.files, profiles);
  const manifest = await exportProfiles(ctx.session(), profiles, riding(wait));
  if (target !== undefined) return writeExport(ctx, target, manifest, format);
  // Every piece through the one mask (term.out).
  for (const piece of manifestPieces(format, manifest)) ctx.term.out(piece);
  const lists = Object.values(manifest.profiles);
  const names = lists.reduce((sum, list) => sum + list.buckets.length, 0);
  ctx.term.info(`exported ${lists.length} profile${lists.length === 1 ? '' : 's'} (${names.toLocaleString('en-US')} name${names === 1 ? '' : 's'})`);
}

/** Usage errors before anything is read; the profiles to export. */
function checkExportOptions(options: ApplyOptions): string[] {
  if (options.export === undefined) throw new UsageError(`${options.files !== undefined ? '--files' : '--out'} goes with --export PROFILE…`);
  for (const flags of NOT_WITH_EXPORT) {
    const given = (options as Record<string, unknown>)[new Option(flags).attributeName()];
    if (given !== undefined && given !== false) throw new UsageError(`--export and ${flags.split(',')[0]} cannot be given together: --export only reads, and prints a manifest`);
  }
  if (options.files !== undefined && options.out === undefined) {
    throw new UsageError("--files needs --out FILE: the manifest names its list files relative to its own folder, and standard output has none", {
      hint: `Write both: scpctl apply --export ${options.export.join(' ')} --out scpctl.yaml --files ${options.files}`,
    });
  }
  return options.export;
}
