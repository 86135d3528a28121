// `scpctl report`: its declaration, with the choices the query builder itself checks; the code is in
// index.ts beside it and loads only when it runs.
import { REPORT_GROUPBYS, REPORT_TYPES } from '../../core/report-query.js';
import type { CommandSpec } from '../command-spec.js';

export const reportCommand: CommandSpec = {
  name: 'report',
  summary: 'pull a summarized report of events',
  group: 'Reports:',
  options: [
    { flags: '--type <type>', description: 'event type', choices: REPORT_TYPES },
    { flags: '--groupby <field>', description: 'group by', choices: REPORT_GROUPBYS },
    { flags: '--period <period>', description: 'time window: 1h, 24h (1d), 7d, 30d (or their seconds); default 24h' },
    { flags: '--start <time>', description: 'window start: Unix seconds, ISO 8601, or relative (2h, 3d, 90m ago)' },
    { flags: '--end <time>', description: 'window end (default now)' },
    { flags: '--insertion-start <seconds>', description: 'insertion time window start (Unix seconds)' },
    { flags: '--insertion-end <seconds>', description: 'insertion time window end (Unix seconds)' },
    { flags: '--query <query>', description: 'raw event query, e.g. "app eq Dropbox"' },
    { flags: '--where <field=value>', description: 'filter (repeatable): becomes "field eq value"', repeatable: true },
    { flags: '--alert-type <type>', description: 'short for --where alert_type=TYPE' },
    { flags: '--limit <n>', description: 'records per request, 1 to 9999 (with --all: page size, default 9999)' },
    { flags: '--skip <n>', description: 'records to skip (0 or more)' },
    { flags: '--all', description: 'page through every record, streaming them as they come' },
    { flags: '--checkpoint <file>', description: 'with --all: continue from the end of the last complete run recorded in FILE (cron, SIEM)' },
    { flags: '--lag <seconds>', description: 'with --checkpoint: stop this many seconds before now (the service indexing lag), default 300' },
    { flags: '--chart', description: 'draw bars of the count column under the table (needs --groupby)' },
    { flags: '--csv-raw', description: "with -o csv: cells exactly as received (by default a cell a spreadsheet would run as a formula gets a leading ')" },
    { flags: '--raw-time', description: 'keep Unix seconds in tables (on a terminal they show as ISO 8601 UTC)' },
  ],
  examples: [
    'scpctl report --type application --groupby application --period 7d',
    'scpctl report --type alert --alert-type dlp --groupby user --chart',
    'scpctl report --all -o ndjson > events.ndjson',
    'scpctl report --all --type alert --checkpoint cp.json -o ndjson >> a.ndjson',
    "scpctl report --type alert --period 7d --contexts '*,!staging' -o csv",
  ],
  output: { kind: 'records', terminal: 'table', piped: 'json' },
  fanOut: { changes: false, oneTenant: ['--checkpoint'] },
  load: async () => (await import('./index.js')).report,
};
