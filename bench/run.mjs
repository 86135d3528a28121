#!/usr/bin/env node
// `npm run bench`: scpctl against the alternatives, side by side in one run, on this machine.
// Builds its fixtures, starts the emulator on port 0, runs every case interleaved with its baselines,
// and prints medians, ratios, peak RSS, and whether each target is met. It reports; it does not gate.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../scripts/emulator.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'scpctl.js');
const fixtures = join(root, 'bench', '.fixtures');
const runs = Number(process.env.BENCH_RUNS ?? 7);
// A command slower than this is measured once and shown as "at least" (a quadratic table would take hours).
const limitMs = Number(process.env.BENCH_LIMIT_S ?? 30) * 1000;
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
mkdirSync(fixtures, { recursive: true });

for (const tool of ['curl', 'jq']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.error(`bench: ${tool} is needed for the baselines (apt-get install ${tool})`);
    process.exit(1);
  }
}

// ---------- fixtures ----------
/** 400,000 unique S3-style names whose comma-joined list is just under 8 MiB. */
function makeNames(count, salt) {
  const names = [];
  for (let i = 0; i < count; i++) {
    const width = i < count * 0.9375 ? 20 : 19;
    const stem = `${salt}${i.toString(36)}`;
    names.push(`b-${stem}-${'x'.repeat(Math.max(1, width - stem.length - 3))}`.slice(0, width));
  }
  return names;
}
const names = makeNames(400_000, 'n');
if (new Set(names).size !== names.length) throw new Error('fixture names are not unique');
const joined = names.join(',');
const namesFile = join(fixtures, 'names.txt');
// Comments and 1% duplicates, as a real allowlist file has.
writeFileSync(namesFile, `# allowlist, generated for the benchmark\n${names.map((n, i) => (i % 100 === 0 ? `${n}\n${n}  # again` : n)).join('\n')}\n`);
const bodyFile = join(fixtures, 'body.json');
writeFileSync(bodyFile, JSON.stringify({ list: joined }));
// names2: 1% of the names replaced by new ones.
const names2 = names.slice();
const fresh = makeNames(4_000, 'z');
for (let i = 0; i < fresh.length; i++) names2[i * 100 + 7] = fresh[i];
const names2File = join(fixtures, 'names2.txt');
writeFileSync(names2File, names2.join('\n') + '\n');
const small = Array.from({ length: 10 }, (_, i) => `small-bucket-${i}`);
const hundredKBody = join(fixtures, 'body100k.json');
writeFileSync(hundredKBody, JSON.stringify({ list: names.slice(0, 100_000).join(',') }));

// ---------- emulators ----------
const emulate = (args) => startEmulator(['--token', 'bench-token', ...args], { stderr: 'ignore' });

const main = await emulate(['--profile', `small=${small.join(',')}`, '--profile', 'big', '--profile', 'hundredk', '--events', '100000']);
const tenK = await emulate(['--events', '10000']);
const bucketUrl = (base, profile, op) => `${base}/api/v1/storage_constraint_profile?token=bench-token&name=${profile}&op=${op}`;
const env = { ...process.env, SCPCTL_BASE_URL: main.url, SCPCTL_TOKEN: 'bench-token', SCPCTL_CONFIG_DIR: fixtures, SCPCTL_STATE_DIR: join(fixtures, 'state'), NO_COLOR: '1' };
delete env.HTTPS_PROXY; delete env.HTTP_PROXY; delete env.https_proxy; delete env.http_proxy;
// Node reads NODE_EXTRA_CA_CERTS at every start (a whole system bundle here costs 30-45 ms of each Node
// process, and curl, jq and sort pay nothing): left out of every timed process, as a user's machine has it.
delete env.NODE_EXTRA_CA_CERTS;

// Fill the big profile once so view and sync have 400,000 names to work on, and one of 100,000 for tables.
spawnSync('curl', ['-s', '-X', 'POST', bucketUrl(main.url, 'big', 'replaceBucketList'), '-H', 'content-type: application/json', '--data-binary', `@${bodyFile}`], { stdio: 'ignore' });
spawnSync('curl', ['-s', '-X', 'POST', bucketUrl(main.url, 'hundredk', 'replaceBucketList'), '-H', 'content-type: application/json', '--data-binary', `@${hundredKBody}`], { stdio: 'ignore' });

// ---------- measuring ----------
/** One run of a shell command: wall time and peak RSS (KiB, from GNU time when available); cut at `limitMs`. */
function measure(command, extraEnv = {}) {
  const timed = timeBin ? `${timeBin} -f '__RSS__%M' sh -c ${shellQuote(command)}` : command;
  // coreutils timeout kills the whole process group, so nothing of a cut run lives on to load the machine.
  const script = `timeout -s KILL ${limitMs / 1000} sh -c ${shellQuote(timed)}`;
  const started = process.hrtime.bigint();
  const result = spawnSync('sh', ['-c', script], { env: { ...env, ...extraEnv }, cwd: fixtures, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status === 137 || result.status === 124) return { ms, rssKb: NaN, cut: true };
  const stderr = result.stderr.toString();
  const rss = Number(/__RSS__(\d+)/.exec(stderr)?.[1] ?? NaN);
  if (result.status !== 0) throw new Error(`bench: "${command}" exited ${result.status}: ${stderr.slice(0, 500)}`);
  return { ms, rssKb: rss };
}
const shellQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs each command of a case `runs` times, interleaved, after one warm-up round. */
function bench(title, commands) {
  const samples = commands.map(() => ({ ms: [], rss: [], cut: false }));
  for (let round = -1; round < runs; round++) {
    commands.forEach(([, command, extraEnv], i) => {
      // A command that hit the time limit is not run again: its one figure is a lower bound.
      if (samples[i].cut) return;
      const { ms, rssKb, cut } = measure(command, extraEnv);
      if (round >= 0 || cut) {
        samples[i].ms.push(ms);
        samples[i].rss.push(rssKb);
        samples[i].cut ||= Boolean(cut);
      }
    });
  }
  const rows = commands.map(([label], i) => ({ label, ms: median(samples[i].ms), runs: samples[i].ms, rssMb: Math.max(...samples[i].rss) / 1024, cut: samples[i].cut }));
  results.push({ title, rows });
  printCase(title, rows);
  return rows;
}

/**
 * A's time over B's, taken round by round (the two ran one after the other) and the median of those: this
 * 2-core machine's speed drifts during a run (node -e 0 took 28 to 41 ms in one bench), and a ratio of two
 * medians taken minutes apart moves with it. A command cut at the time limit has one figure: medians then.
 * The times printed are medians.
 */
function ratio(a, b) {
  if (a.cut || b.cut || a.runs.length !== b.runs.length) return a.ms / b.ms;
  return median(a.runs.map((ms, round) => ms / b.runs[round]));
}

const results = [];
function printCase(title, rows) {
  const base = rows[rows.length - 1];
  console.log(`\n${title}`);
  for (const row of rows) {
    const versus = row === base ? '' : `  ${row.cut ? '≥ ' : ''}${ratio(row, base).toFixed(2)} × ${base.label}`;
    const time = row.cut ? `≥ ${(row.ms / 1000).toFixed(0)} s (cut)` : `${row.ms.toFixed(1)} ms`;
    console.log(`  ${row.label.padEnd(34)} ${time.padStart(11)}   peak RSS ${Number.isFinite(row.rssMb) ? row.rssMb.toFixed(0).padStart(4) + ' MB' : '   ?'}${versus}`);
  }
}

const scp = `node ${shellQuote(bin)}`;
const curlPost = (url, data) => `curl -s -f -X POST ${shellQuote(url)} -H 'content-type: application/json' ${data}`;
const targets = [];
/** A target row: the figure, its bound (at most, or at least with 'min'), and whether it holds. */
const target = (name, value, bound, detail, kind = 'max') =>
  targets.push({ name, value, bound, kind, met: kind === 'max' ? value <= bound : value >= bound, detail: detail ?? `${value.toFixed(2)} ×` });

console.log(`scpctl benchmark: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${runs} runs a case (medians)`);

// 1. start-up
const c1 = bench('1. start-up', [
  ['scpctl --version', `${scp} --version`],
  ['scpctl buckets --help', `${scp} buckets --help`],
  ['node -e 0', 'node -e 0'],
]);
// Issue 35's targets (one reader of argv: --version is commander's, with no target of its own).
target('buckets --help / node -e 0', ratio(c1[1], c1[2]), 1.5);

// 2. small request, against what a user writes without scpctl: a 10-line node:http script (the 10 lines
// below) and curl
const httpScript = join(fixtures, 'view-small.cjs');
writeFileSync(
  httpScript,
  `const http = require('node:http');
const request = http.request(process.argv[2], { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
  let body = '';
  response.setEncoding('utf8');
  response.on('data', (chunk) => (body += chunk));
  response.on('end', () => {
    const answer = JSON.parse(body);
    if (answer.status !== 'success') process.exit(1);
    process.stdout.write(answer.data.join('\\n') + '\\n');
  });
});
request.end('{}');
`,
);
const c2 = bench('2. view a 10-name profile', [
  ['scpctl buckets view small', `${scp} buckets view small`],
  ['10-line node:http script', `node view-small.cjs ${shellQuote(bucketUrl(main.url, 'small', 'viewBucketList'))}`],
  ['curl', curlPost(bucketUrl(main.url, 'small', 'viewBucketList'), "-d '{}'")],
  ['node -e 0', 'node -e 0'],
]);
target('small view / node -e 0', ratio(c2[0], c2[3]), 2.0);
target('small view / 10-line node:http script', ratio(c2[0], c2[1]), 1.3);

// 2b. the single executable (npm run build:binary): one file, its bundle compiled once into a code cache
const binary = join(dirname(bin), '..', 'dist', 'bin', 'scpctl');
if (!existsSync(binary)) spawnSync(process.execPath, [join(dirname(bin), '..', 'scripts', 'build-binary.mjs')], { stdio: 'ignore' });
if (existsSync(binary)) {
  const c2b = bench('2b. the single executable (dist/bin/scpctl)', [
    ['binary --version', `${shellQuote(binary)} --version`],
    ['binary buckets view small', `${shellQuote(binary)} buckets view small`],
    ['node -e 0', 'node -e 0'],
  ]);
  target('binary small view / node -e 0', ratio(c2b[1], c2b[2]), 2.0);
} else console.log('\n2b. the single executable: could not be built here (npm run build:binary says why)');

// 3. 8 MiB replace (the plain replace: --no-history where the command knows it)
const noHistory = spawnSync('node', [bin, 'buckets', 'replace', '--help'], { encoding: 'utf8' }).stdout.includes('--no-history') ? ' --no-history' : '';
const c3 = bench('3. replace with 400,000 names (8 MiB)', [
  ['scpctl buckets replace -f names.txt', `${scp} buckets replace big -f names.txt -q${noHistory}`],
  ['grep|sort|paste|jq|curl pipeline', `grep -v '^#' names.txt | sed 's/ *#.*//' | sort -u | paste -sd, - | jq -Rc '{list: .}' | ${curlPost(bucketUrl(main.url, 'big', 'replaceBucketList'), '--data-binary @- -o /dev/null')}`],
  ['curl posting a prebuilt body', curlPost(bucketUrl(main.url, 'big', 'replaceBucketList'), '--data-binary @body.json -o /dev/null')],
]);
target('8 MiB replace -f / grep-sort-paste-jq-curl pipeline', ratio(c3[0], c3[1]), 0.75);
target('8 MiB replace -f / bare curl of the same body', ratio(c3[0], c3[2]), 1.6);
target('8 MiB replace peak RSS (MB)', c3[0].rssMb, 100, `${c3[0].rssMb.toFixed(0)} MB`);

// 4. 8 MiB view
const c4 = bench('4. view 400,000 names into a file', [
  ['scpctl buckets view big > out.txt', `${scp} buckets view big > out.txt`],
  ["curl | jq -r '.data[]' > out.txt", `${curlPost(bucketUrl(main.url, 'big', 'viewBucketList'), "-d '{}'")} | jq -r '.data[]' > out2.txt`],
]);
target('8 MiB view to a file / curl | jq -r', ratio(c4[0], c4[1]), 0.7);
// With history, against what a careful admin does by hand: save the list with curl, then the pipeline.
const pipeline = `grep -v '^#' names.txt | sed 's/ *#.*//' | sort -u | paste -sd, - | jq -Rc '{list: .}' | ${curlPost(bucketUrl(main.url, 'big', 'replaceBucketList'), '--data-binary @- -o /dev/null')}`;
const c3b = bench('4b. replace with 400,000 names that first reads and keeps the list (history)', [
  ['replace (history read and kept)', `${scp} buckets replace big -f names.txt -q`],
  ['curl saving the list, then the pipeline', `${curlPost(bucketUrl(main.url, 'big', 'viewBucketList'), "-d '{}' -o saved.json")} && ${pipeline}`],
]);
target('8 MiB replace with its history / curl save + the pipeline', ratio(c3b[0], c3b[1]), 0.8);

// 5. sync dry run against the shell's diff of the two sorted lists
const c5 = bench('5. sync --dry-run, 400,000 vs 400,000 names, 1% different', [
  ['scpctl buckets sync --dry-run', `${scp} buckets sync big -f names2.txt --dry-run -q > plan.txt`],
  ['diff <(curl|jq|sort) <(grep|sort -u)', `bash -c ${shellQuote(`diff <(${curlPost(bucketUrl(main.url, 'big', 'viewBucketList'), "-d '{}'")} | jq -r '.data[]' | sort) <(grep -v '^#' names2.txt | sort -u) > plan2.txt; [ $? -le 1 ]`)}`],
]);
const syncRatio = ratio(c5[0], c5[1]);
target('sync --dry-run 400k × 400k / diff <(curl|jq|sort) <(grep|sort -u)', syncRatio, 0.6, `${syncRatio.toFixed(2)} × (${c5[0].ms.toFixed(0)} ms)`);

// 6. tables
const c6 = bench('6. buckets view of 100,000 names: table vs text', [
  ['view -o table', `${scp} buckets view hundredk -o table > t100k.txt`],
  ['view -o text', `${scp} buckets view hundredk -o text > x100k.txt`],
]);
target('buckets view of 100k names -o table / -o text', ratio(c6[0], c6[1]), 1.3, `${c6[0].cut ? '≥ ' : ''}${ratio(c6[0], c6[1]).toFixed(2)} ×`);
const c7 = bench('7. report --limit 9999: table vs json', [
  ['report -o table', `${scp} report --limit 9999 --period 30d -o table -q > r9999.txt`],
  ['report -o json', `${scp} report --limit 9999 --period 30d -o json -q > r9999.json`],
]);
target('report --limit 9999 -o table / -o json', ratio(c7[0], c7[1]), 1.3, `${c7[0].cut ? '≥ ' : ''}${ratio(c7[0], c7[1]).toFixed(2)} ×`);

// 8. long reports
// What users write today: curl and jq in a loop over skip, 9,999 at a time, until a short page.
const reportUrl = `${main.url}/api/v1/report?timeperiod=2592000&limit=9999&skip=`;
const loop = `skip=0; : > loop.ndjson; while :; do ${curlPost(reportUrl, `-d '{"token":"bench-token"}'`).replace(shellQuote(reportUrl), `"${reportUrl}$skip"`)} | jq -c '.data[]' > page.ndjson; n=$(wc -l < page.ndjson); cat page.ndjson >> loop.ndjson; [ "$n" -lt 9999 ] && break; skip=$((skip + n)); done`;
const c8 = bench('8. report --all -o ndjson', [
  ['10,000 records', `${scp} report --all -o ndjson --period 30d -q > r10k.ndjson`, { SCPCTL_BASE_URL: tenK.url }],
  ['100,000 records', `${scp} report --all -o ndjson --period 30d -q > r100k.ndjson`],
  ['100,000 records, curl|jq loop', loop],
]);
target('report --all 100k ndjson / curl|jq loop', ratio(c8[1], c8[2]), 0.4);
const count = (f) => readFileSync(join(fixtures, f), 'utf8').split('\n').filter(Boolean).length;
const [n10, n100] = [count('r10k.ndjson'), count('r100k.ndjson')];
const rate = n100 / (c8[1].ms / 1000);
console.log(`  records: ${n10} and ${n100}; ${Math.round(n10 / (c8[0].ms / 1000))} and ${Math.round(rate)} records/s`);
target('report records/s (at least)', rate, 50_000, `${Math.round(rate)} records/s at ${n100} records`, 'min');
target('report --all peak RSS at 100k / at 10k', c8[1].rssMb / c8[0].rssMb, 1.2, `${c8[1].rssMb.toFixed(0)} MB vs ${c8[0].rssMb.toFixed(0)} MB (${(c8[1].rssMb / c8[0].rssMb).toFixed(2)} ×)`);

// 9. allowlists as code: 50 profiles of 1,000 names, each 1% different, planned and applied
const PROFILES = Array.from({ length: 50 }, (_, i) => `tenant-${String(i).padStart(2, '0')}`);
const fleet = await emulate(PROFILES.flatMap((p) => ['--profile', p]));
const gitops = join(fixtures, 'gitops');
mkdirSync(gitops, { recursive: true });
for (const [i, profile] of PROFILES.entries()) {
  const base = makeNames(1_000, `t${i}x`);
  const changed = base.slice(0, 990).concat(makeNames(10, `t${i}y`));
  writeFileSync(join(gitops, `${profile}-a.txt`), changed.join('\n') + '\n');
  writeFileSync(join(gitops, `${profile}-b.txt`), base.join('\n') + '\n');
  await fetch(bucketUrl(fleet.url, profile, 'replaceBucketList'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ list: base.join(',') }) });
}
for (const side of ['a', 'b']) {
  writeFileSync(join(gitops, `${side}.yaml`), `profiles:\n${PROFILES.map((p) => `  ${p}:\n    files: [${p}-${side}.txt]\n`).join('')}`);
}
// Unpaced first (SCPCTL_RATE high): scpctl's own cost. Each round applies a.yaml, then b.yaml back.
const unpaced = { SCPCTL_BASE_URL: fleet.url, SCPCTL_RATE: '100000/1', SCPCTL_STATE_DIR: join(gitops, 'state') };
const c9 = bench('9. apply: 50 profiles × 1,000 names, 1% different (unpaced: SCPCTL_RATE=100000/1)', [
  ['scpctl apply --dry-run (plan)', `${scp} apply -f gitops/a.yaml --dry-run -q > gitops/plan.txt`, unpaced],
  ['scpctl apply (50 modifies)', `${scp} apply -f gitops/a.yaml -q > /dev/null`, unpaced],
  ['scpctl apply back', `${scp} apply -f gitops/b.yaml -q > /dev/null`, unpaced],
  ['node -e 0', 'node -e 0'],
]);
// Then once at the default rate, 24 requests in 5 s: 50 views + 50 modifies cannot take less than 20 s.
const paced = measure(`${scp} apply -f gitops/a.yaml -q > /dev/null`, { ...unpaced, SCPCTL_RATE: '' });
const pacedPlan = measure(`${scp} apply -f gitops/b.yaml --dry-run -q > /dev/null`, { ...unpaced, SCPCTL_RATE: '' });
measure(`${scp} apply -f gitops/b.yaml -q > /dev/null`, unpaced);
console.log(`  at the default rate (24 in 5 s): plan ${(pacedPlan.ms / 1000).toFixed(1)} s (floor 10 s), apply ${(paced.ms / 1000).toFixed(1)} s (floor 20 s)`);
target('50-profile plan, unpaced (ms)', c9[0].ms, 1000, `${c9[0].ms.toFixed(0)} ms`);
target('50-profile apply at 24 in 5 s, within 10% of the rate\'s floor of 20 s (s)', paced.ms / 1000, 22, `${(paced.ms / 1000).toFixed(1)} s`);
fleet.stop();

main.stop();
tenK.stop();

console.log('\nTargets');
for (const t of targets) {
  console.log(`  ${t.met ? 'met    ' : 'not met'}  ${t.name}: ${t.detail} (target ${t.kind === 'max' ? '≤' : '≥'} ${t.bound})`);
}
writeFileSync(join(fixtures, 'results.json'), JSON.stringify({ when: new Date().toISOString(), node: process.version, runs, results, targets }, null, 2));
