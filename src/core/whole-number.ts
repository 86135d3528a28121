// The one reader of whole-number flags and settings (report's --limit and --skip, --retries, --timeout,
// historyKeep, --parallel, --lag, the emulator's flags): one wording of the refusal for all of them.
import { UsageError } from '../errors.js';

/** A whole-number flag in [min, max]; undefined when not given; a usage error naming the flag otherwise. */
export function optionalInteger(flag: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new UsageError(`${flag}: "${text}" is not a whole number ${range}`);
  }
  return value;
}
