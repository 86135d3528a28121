// The names closest to a mistyped one (a profile the service says does not exist): the same measure as
// commander's suggestion for a mistyped command, which it keeps to itself. Pure: the caller says which names
// are candidates.

/** At most this many edits apart, and sharing more than this part of the longer name, to be suggested. */
const MAX_DISTANCE = 2;
const MIN_SIMILARITY = 0.4;

/**
 * Optimal string alignment distance (Damerau-Levenshtein where no substring is edited twice): insertions,
 * deletions, substitutions and swaps of two neighbours each count one. Names further apart than
 * MAX_DISTANCE + 1 by length alone are not compared.
 */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidates nearest to `word` (case aside), all those at the best distance found, in the candidates'
 * order; none when nothing is near enough. `word` itself is never suggested.
 */
export function closestNames(word: string, candidates: readonly string[], limit = 3): string[] {
  let best = MAX_DISTANCE + 1;
  let closest: string[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === word || candidate.length <= 1) continue;
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    const length = Math.max(word.length, candidate.length);
    if ((length - distance) / length <= MIN_SIMILARITY || distance > best) continue;
    if (distance < best) closest = [];
    best = distance;
    closest.push(candidate);
  }
  return closest.slice(0, limit);
}
