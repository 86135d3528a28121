// Fault injection: tests queue misbehaviours (errors, broken bodies, hangs...) that the emulator
// applies to the next matching API requests, so that the client's error handling can be exercised
// against a real socket.
import { isObject, type Endpoint } from './http.js';

export const FAULT_KINDS = [
  'status', 'html', 'truncated', 'empty', 'wrong-shape', 'huge', 'hang', 'stall', 'reset', 'delay', 'tamper',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

export const MUTATING_OPS: readonly string[] = [
  'appendToBucketList', 'deleteFromBucketList', 'modifyBucketList', 'replaceBucketList',
];

export interface Fault {
  kind: FaultKind;
  /** Which endpoint it applies to; absent means either. */
  endpoint?: Endpoint;
  /** Bucket endpoint only: the op it applies to. */
  op?: string;
  /** How many matching requests it still applies to. */
  count: number;
  /** status: the HTTP status to answer. */
  status?: number;
  /** status: extra response headers. */
  headers?: Record<string, string>;
  /** status, wrong-shape: the raw body to send. */
  body?: string;
  /** huge: megabytes to stream (default 300). */
  sizeMb?: number;
  /** delay: how long to hold the (normally processed) answer. */
  ms?: number;
  /** tamper: names appended to the profile right after a successful mutation. */
  append?: string[];
}

export class FaultSpecError extends Error {}

export interface FaultTarget {
  endpoint: Endpoint;
  op?: string;
}

function fail(index: number, message: string): never {
  throw new FaultSpecError(`faults[${index}]: ${message}`);
}

/** Each field a test may set besides the kind, and whether a value is one it can mean. */
const FIELDS: Record<string, (v: unknown) => boolean> = {
  endpoint: (v) => v === 'bucket' || v === 'report',
  op: (v) => typeof v === 'string',
  count: (v) => Number.isSafeInteger(v) && (v as number) >= 1,
  // 1xx are interim answers, not something a fault can end a request with.
  status: (v) => Number.isInteger(v) && (v as number) >= 200 && (v as number) <= 599,
  headers: (v) => isObject(v) && Object.values(v).every((header) => typeof header === 'string'),
  body: (v) => typeof v === 'string',
  sizeMb: (v) => typeof v === 'number' && v > 0 && v <= 16384,
  ms: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  append: (v) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'),
};
/** The field a kind cannot do without. */
const NEEDS: Partial<Record<FaultKind, string>> = { status: 'status', delay: 'ms', tamper: 'append' };

/** Checks one fault as posted by a test, so that a typo (a kind, a field, a value) fails loudly instead of never matching. */
export function parseFault(raw: unknown, index = 0): Fault {
  if (!isObject(raw) || !(FAULT_KINDS as readonly unknown[]).includes(raw.kind)) {
    fail(index, `must be an object whose kind is one of ${FAULT_KINDS.join(', ')}`);
  }
  const needed = NEEDS[raw.kind as FaultKind];
  if (needed !== undefined && raw[needed] === undefined) fail(index, `a ${String(raw.kind)} fault needs ${needed}`);
  for (const [key, value] of Object.entries(raw)) {
    if (key !== 'kind' && !FIELDS[key]?.(value)) fail(index, `${key} is no field of a fault, or not a value it takes`);
  }
  return { count: 1, ...raw } as Fault;
}

function matches(f: Fault, t: FaultTarget): boolean {
  if (f.endpoint !== undefined && f.endpoint !== t.endpoint) return false;
  if (f.op !== undefined && f.op !== t.op) return false;
  // A tamper is a concurrent change after a mutation; on anything else it would just be lost.
  if (f.kind === 'tamper' && !(t.endpoint === 'bucket' && t.op !== undefined && MUTATING_OPS.includes(t.op))) {
    return false;
  }
  return true;
}

/** FIFO of faults; the first one matching a request is used, once per unit of its count. */
export class FaultQueue {
  private faults: Fault[] = [];

  /** Appends `{"faults":[...]}` (or a bare array); all are checked before any is queued. */
  add(input: unknown): number {
    const list = Array.isArray(input) ? input : isObject(input) ? input.faults : undefined;
    if (!Array.isArray(list)) throw new FaultSpecError('expected {"faults":[...]}');
    const parsed = list.map((raw, i) => parseFault(raw, i));
    this.faults.push(...parsed);
    return parsed.length;
  }

  clear(): void {
    this.faults = [];
  }

  /** Takes one use of the first matching fault; returns a copy of it, or undefined. */
  take(target: FaultTarget): Fault | undefined {
    const i = this.faults.findIndex((f) => matches(f, target));
    if (i < 0) return undefined;
    const f = this.faults[i];
    f.count -= 1;
    if (f.count <= 0) this.faults.splice(i, 1);
    return { ...f, count: 1 };
  }
}
