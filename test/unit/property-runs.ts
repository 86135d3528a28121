// How many cases a property test draws. `npm test` runs a sixth of each property's full count so that the
// suite stays within its 30 s on two cores; fast-check draws a new seed every run, so each run still tries new cases.
// SCPCTL_PROPERTY_RUNS=full draws them all (before changing a reader or a parser, or in a nightly job), and a
// number multiplies the full count (0.1 for a quick look, 10 for a long hunt).
const setting = process.env.SCPCTL_PROPERTY_RUNS;
const scale = setting === 'full' ? 1 : setting !== undefined && Number(setting) > 0 ? Number(setting) : 1 / 6;

export function runs(full: number): number {
  return Math.max(25, Math.round(full * scale));
}
