// The options every command takes, declared once: cli.ts hands them to commander, which reads them.
import type { OptionSpec } from './command-spec.js';
import { FORMATS } from '../output/formats.js';

/** Every -o format some command takes, for the global option's help (each command's help lists its own). */
const ALL_FORMATS = [...new Set(Object.values(FORMATS).flat())];

/** Read before or after the subcommand. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flags: '--base-url <url>', description: 'service base address (env SCPCTL_BASE_URL)' },
  { flags: '--token-file <file>', description: 'read the API token from a file (env SCPCTL_TOKEN_FILE; or set SCPCTL_TOKEN)' },
  { flags: '--context <name>', description: 'named set of settings to use (env SCPCTL_CONTEXT)' },
  {
    flags: '-o, --output <format>',
    description: `output format: ${ALL_FORMATS.join(', ')} (each command's help says which it takes)`,
    // `-o=csv` as `--output=csv` and `-ocsv` already are: commander reads "=csv" as the value of -o.
    parse: (value) => value.replace(/^=/, ''),
  },
  { flags: '--json', description: 'short for --output json' },
  { flags: '-q, --quiet', description: 'no progress or summaries on stderr; errors still print' },
  { flags: '-v, --verbose', description: 'print each HTTP request and response on stderr (token shown as ***)' },
  { flags: '--timeout <seconds>', description: 'per-request timeout in seconds (env SCPCTL_TIMEOUT; default 30)' },
  { flags: '--retries <n>', description: 'retries on network errors, 429 and 5xx (default 3)' },
  { flags: '--ca-cert <file>', description: 'extra PEM certificate authority for TLS (env SCPCTL_CA_CERT)' },
  { flags: '--no-color', description: 'no ANSI colours (env NO_COLOR)' },
];
