// A report page read a slice of records at a time, from its bytes. As one text parsed whole, a page of
// 9,999 records was megabytes of string and objects that all outlived V8's young generation, so they
// piled up in the old one until a full collection: `report --all` grew with the record count. Here the
// answer's bytes (in a buffer reused page after page, api/attempt.ts) are scanned once, by the scanner that
// finds a saved plan's profiles (core/plan-scan.ts), for where each record of the top-level "data" array
// starts and ends; a skeleton of the answer (the array emptied) goes through readResponse, so every rule
// about statuses and errors stays in response.ts; and the records are decoded and parsed a small slice at a
// time, garbage as soon as it is written. Anything unusual (a repeated key, a record that is not an object,
// deep nesting, what is not JSON) gives null, and so does a skeleton that does not read as a success
// without records (the client's check): the caller then reads the answer the ordinary way, which also words
// every error. Every byte the scan looks for is ASCII, and UTF-8 never uses an ASCII byte inside a longer
// character, so slices cut no character.
import { parseExactJson } from '../core/exact-json.js';
import { PlanScanner } from '../core/plan-scan.js';
import { isCanonicalJson } from './canonical-json.js';
import type { JsonObject } from './response.js';

/** A page's records, found but not yet built. */
export interface RecordSlices {
  /** The answer with its records array emptied, for readResponse. */
  skeleton: string;
  readonly length: number;
  /** Records `from` to `to` (exclusive), built. */
  records(from: number, to: number): JsonObject[];
  /** The same records as their bytes, when each is what would be written of it (canonical-json.ts), else null. */
  canonical(from: number, to: number): Buffer[] | null;
}

/** Where the records of the answer `text` are, or null when the answer needs the ordinary reader. */
export function scanReportPage(text: Buffer): RecordSlices | null {
  const bounds: number[] = [];
  let skeleton: string;
  try {
    const scanner = new PlanScanner({
      lists: ['data'],
      headBytes: text.length,
      itemBytes: Infinity,
      maxItems: Infinity,
      onItem: (_, start, end) => {
        if (text[start] !== 0x7b) throw new Error('a record that is not an object');
        bounds.push(start, end);
      },
    });
    scanner.feed(text);
    skeleton = scanner.finish();
  } catch {
    return null;
  }
  return {
    skeleton,
    length: bounds.length / 2,
    records(from: number, to: number): JsonObject[] {
      if (to <= from) return [];
      return parseExactJson(`[${text.toString('utf8', bounds[2 * from]!, bounds[2 * to - 1]!)}]`) as JsonObject[];
    },
    canonical(from: number, to: number): Buffer[] | null {
      const records: Buffer[] = [];
      for (let r = from; r < to; r++) {
        if (!isCanonicalJson(text, bounds[2 * r]!, bounds[2 * r + 1]!)) return null;
        records.push(text.subarray(bounds[2 * r]!, bounds[2 * r + 1]!));
      }
      return records;
    },
  };
}
