// The names of a kept list (a history version) checked before they are sent back, reported as section 3
// reports names read from a file: never a stand-in the mask left, never a name holding a token (a version
// kept by an older scpctl may hold one as it is), and only what the wire can carry. The S3 rules are not
// applied: the service held these names, and restore brings them back byte for byte (contract section 10).
import { MAX_REPORTED_INVALID, checkWireSafe, quoteName } from './names.js';
import { SECRET_NAME_REASON, holdsSecret, isMaskedName } from './secret-names.js';

/**
 * The report lines of every name that may not be sent (`LABEL:N: "name": reason`, N counting from 1; a
 * token-holding name is never quoted), the first 20 and then `… and N more`, and how many; none when all may be sent.
 */
export function keptNameProblems(names: readonly string[], label: string, secrets: readonly string[]): { lines: string[]; count: number } {
  const lines: string[] = [];
  let count = 0;
  names.forEach((name, i) => {
    const where = `${label}:${i + 1}`;
    let line: string | undefined;
    if (holdsSecret(name, secrets)) line = `${where}: ${SECRET_NAME_REASON}`;
    else {
      const reason = isMaskedName(name) ? 'a name kept masked because it held a token; it is not the real name' : checkWireSafe(name);
      if (reason !== null) line = `${where}: ${quoteName(name, secrets)}: ${reason}`;
    }
    if (line === undefined) return;
    count++;
    if (lines.length < MAX_REPORTED_INVALID) lines.push(line);
  });
  if (count > lines.length) lines.push(`… and ${count - lines.length} more`);
  return { lines, count };
}
