// Fault injection: tests queue misbehaviours (errors, broken bodies, hangs...) that the emulator
// applies to the next matching API requests, so that the client's error handling can be exercised
// against a real socket.

export const FAULT_KINDS = [
  'status', 'html', 'truncated', 'empty', 'wrong-shape', 'huge', 'hang', 'stall', 'reset', 'delay', 'tamper',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];
export type Endpoint = 'bucket' | 'report';

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

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks one fault as posted by a test, so that a typo fails loudly instead of never matching. */
export function parseFault(raw: unknown, index = 0): Fault {
  if (!isObject(raw)) fail(index, 'must be an object');
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) {
    fail(index, `kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  const fault: Fault = { kind: kind as FaultKind, count: 1 };
  if (raw.endpoint !== undefined) {
    if (raw.endpoint !== 'bucket' && raw.endpoint !== 'report') fail(index, `endpoint must be "bucket" or "report"`);
    fault.endpoint = raw.endpoint;
  }
  if (raw.op !== undefined) {
    if (typeof raw.op !== 'string') fail(index, 'op must be a string');
    fault.op = raw.op;
  }
  if (raw.count !== undefined) {
    if (!Number.isSafeInteger(raw.count) || (raw.count as number) < 1) fail(index, 'count must be an integer >= 1');
    fault.count = raw.count as number;
  }
  if (raw.status !== undefined || kind === 'status') {
    // 1xx are interim answers, not something a fault can end a request with.
    if (!Number.isInteger(raw.status) || (raw.status as number) < 200 || (raw.status as number) > 599) {
      fail(index, 'status must be an HTTP status from 200 to 599');
    }
    fault.status = raw.status as number;
  }
  if (raw.headers !== undefined) {
    if (!isObject(raw.headers)) fail(index, 'headers must be an object');
    fault.headers = {};
    for (const [k, v] of Object.entries(raw.headers)) {
      if (typeof v !== 'string' && typeof v !== 'number') fail(index, `header ${k} must be a string`);
      fault.headers[k] = String(v);
    }
  }
  if (raw.body !== undefined) {
    if (typeof raw.body !== 'string') fail(index, 'body must be a string');
    fault.body = raw.body;
  }
  if (raw.sizeMb !== undefined) {
    if (typeof raw.sizeMb !== 'number' || !(raw.sizeMb > 0) || raw.sizeMb > 16384) {
      fail(index, 'sizeMb must be a number above 0 and at most 16384');
    }
    fault.sizeMb = raw.sizeMb;
  }
  if (raw.ms !== undefined || kind === 'delay') {
    if (!Number.isSafeInteger(raw.ms) || (raw.ms as number) < 0) fail(index, 'ms must be an integer >= 0');
    fault.ms = raw.ms as number;
  }
  if (raw.append !== undefined || kind === 'tamper') {
    if (!Array.isArray(raw.append) || raw.append.length === 0 || !raw.append.every((x) => typeof x === 'string')) {
      fail(index, 'append must be a non-empty array of strings');
    }
    fault.append = raw.append as string[];
  }
  return fault;
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
