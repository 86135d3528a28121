// `scpctl buckets ...`: the declarations of the bucket-list commands. Their code is in this folder and loads
// only when one runs.
import { EXIT_CODE, PLAN_ONLY, WAIT, YES, type ArgumentSpec, type CommandSpec, type FanOutSpec, type OptionSpec } from '../command-spec.js';
import type { OutputSpec } from '../../output/formats.js';

/** A command that changes a list, once per context with --contexts (one question first at a terminal). */
const CHANGES: FanOutSpec = { changes: true };

const PROFILE: ArgumentSpec = { name: '<profile>', description: 'storage constraint profile name' };
const BUCKETS: ArgumentSpec = { name: '[bucket...]', description: 'bucket names (commas, spaces and newlines separate)' };
const NO_VALIDATE: OptionSpec = { flags: '--no-validate', description: 'skip the S3 naming rules (commas, whitespace and control characters are still refused)' };
/** append, delete, replace, modify: check the names and show the request, send nothing (no token needed). */
const DRY_RUN: OptionSpec = { flags: '--dry-run', description: 'check the names and show what would be sent; send nothing' };
const LITERAL: OptionSpec = { flags: '--literal', description: 'send names that are also paths here as they are (by default a forgotten -f is refused)' };
/** replace, delete, modify: what a change that can remove names takes. */
const REMOVING: readonly OptionSpec[] = [
  { flags: '--allow-empty', description: 'allow a result with no buckets (removes every bucket)' },
  { flags: '--no-history', description: 'do not read the list first (nothing kept in the history, no empty-list guard)' },
  YES,
  { flags: '--diff', description: 'with --dry-run: read the list and print what would change (+/- lines)' },
  { flags: '--exit-code', description: 'with --dry-run --diff: exit 8 when anything would change' },
];
/** How names from arguments and files (contract section 3) are checked, and a dry run of them. */
const NAME_RULES: readonly OptionSpec[] = [NO_VALIDATE, DRY_RUN, LITERAL];
const NAME_INPUT: readonly OptionSpec[] = [
  { flags: '-f, --file <file>', description: 'read names from FILE (repeatable; - is standard input)', repeatable: true },
  ...NAME_RULES,
];
const CHANGE: OutputSpec = { kind: 'change', terminal: 'table', piped: 'text' };

// Each command loads only its own kind's module: a view does not set up the name reader, the history store
// or the pipeline of the commands that change a list.
export const bucketsCommand: CommandSpec = {
  name: 'buckets',
  summary: 'view and change the bucket list of a profile',
  group: 'Bucket lists:',
  examples: ['scpctl buckets view finance', 'scpctl buckets append finance new-bucket-1 new-bucket-2', 'scpctl buckets sync finance -f allowlist.txt --dry-run'],
  subcommands: [
    {
      name: 'append',
      summary: 'add names to the list (op appendToBucketList)',
      args: [PROFILE, BUCKETS],
      options: [WAIT, ...NAME_INPUT],
      examples: ['scpctl buckets append finance logs-2024 backups-eu', 'grep -v test names.txt | scpctl buckets append finance', 'scpctl buckets append finance -f new.txt --dry-run'],
      output: CHANGE,
      fanOut: CHANGES,
      load: async () => (await import('./list-change.js')).append,
    },
    {
      name: 'delete',
      summary: 'remove names from the list (op deleteFromBucketList); the list is read and kept first',
      args: [PROFILE, BUCKETS],
      options: [WAIT, ...NAME_INPUT, ...REMOVING],
      examples: ['scpctl buckets delete finance old-bucket', 'scpctl buckets delete finance -f retired.txt --dry-run --diff'],
      output: CHANGE,
      fanOut: CHANGES,
      load: async () => (await import('./list-change.js')).remove,
    },
    {
      name: 'replace',
      summary: 'set the whole list (op replaceBucketList)',
      args: [PROFILE, BUCKETS],
      options: [WAIT, ...NAME_INPUT, ...REMOVING],
      examples: ['scpctl buckets replace finance -f allowlist.txt --dry-run --diff', 'scpctl buckets view finance > f && scpctl buckets replace finance -f f'],
      output: CHANGE,
      fanOut: CHANGES,
      load: async () => (await import('./list-change.js')).replace,
    },
    {
      name: 'modify',
      summary: 'delete then add names in one request (op modifyBucketList); the list is read and kept first',
      args: [PROFILE],
      options: [
        WAIT,
        { flags: '--add <names>', description: 'names to add (repeatable; commas and spaces separate)', repeatable: true },
        { flags: '--add-file <file>', description: 'names to add from FILE (repeatable; - is standard input)', repeatable: true },
        { flags: '--delete <names>', description: 'names to delete (repeatable)', repeatable: true },
        { flags: '--delete-file <file>', description: 'names to delete from FILE (repeatable)', repeatable: true },
        ...NAME_RULES,
        ...REMOVING,
      ],
      examples: ['scpctl buckets modify finance --add new-a,new-b --delete old-c', 'scpctl buckets modify finance --add-file add.txt --delete-file del.txt --dry-run --json'],
      output: CHANGE,
      fanOut: CHANGES,
      load: async () => (await import('./list-change.js')).modify,
    },
    {
      name: 'view',
      summary: 'print the bucket list',
      args: [PROFILE],
      options: [WAIT],
      examples: ['scpctl buckets view finance', 'scpctl buckets view finance --json', 'scpctl buckets view finance > allowlist.txt', "scpctl buckets view finance --contexts 'prod-*'"],
      output: { kind: 'bucketList', terminal: 'table', piped: 'text' },
      fanOut: { changes: false },
      load: async () => (await import('./view.js')).view,
    },
    {
      name: 'sync',
      summary: 'make the list equal to FILE: view, diff, one modify',
      args: [PROFILE],
      options: [
        WAIT,
        { flags: '-f, --file <file>', description: 'the desired list (repeatable; - is standard input)', repeatable: true },
        PLAN_ONLY,
        EXIT_CODE,
        { flags: '--verify', description: 'view again after applying and fail if the list does not match' },
        { flags: '--allow-empty', description: 'allow an empty desired list (removes every bucket)' },
        NO_VALIDATE,
        YES,
      ],
      examples: ['scpctl buckets sync finance -f allowlist.txt --dry-run --exit-code', 'scpctl buckets sync finance -f allowlist.txt --verify --wait 300', "scpctl buckets sync finance -f allowlist.txt --contexts '*,!staging' --parallel 2"],
      extraArguments: (extra, [profile]) => ({
        message: `sync takes the desired list from -f FILE, not as arguments: ${extra.map((word) => JSON.stringify(word)).join(' ')} after ${JSON.stringify(profile)}`,
        hint: `Read it with -f: scpctl buckets sync ${profile} ${extra.map((word) => `-f ${word}`).join(' ')}`,
      }),
      output: CHANGE,
      fanOut: CHANGES,
      load: async () => (await import('./sync.js')).sync,
    },
    {
      name: 'history',
      summary: 'the versions of the list kept before each replace, sync, apply and restore',
      args: [PROFILE],
      options: [{ flags: '--show <id>', description: "print that version's names, one a line" }],
      examples: ['scpctl buckets history finance', 'scpctl buckets history finance --show 0mwtcczfx3hj'],
      output: { kind: 'listing', terminal: 'table', piped: 'text' },
      load: async () => (await import('./history.js')).history,
    },
    {
      name: 'restore',
      summary: 'put a kept version of the list back (plan, one modify)',
      args: [PROFILE],
      options: [
        WAIT,
        { flags: '--to <id>', description: 'the version to restore (see buckets history)' },
        PLAN_ONLY,
        EXIT_CODE,
        { flags: '--allow-empty', description: 'allow restoring an empty version (removes every bucket)' },
        YES,
      ],
      examples: ['scpctl buckets restore finance --to 0mwtcczfx3hj --dry-run', 'scpctl buckets restore finance --to 0mwtcczfx3hj'],
      output: CHANGE,
      load: async () => (await import('./history.js')).restore,
    },
  ],
};
