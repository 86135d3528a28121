// Fault injection: tests queue misbehaviours (errors, broken bodies, hangs...) that the emulator applies to
// the next matching API requests instead of answering them (delay and tamper: on top of the answer), so that
// the client's error handling can be exercised against a real socket.
import type { ServerResponse } from 'node:http';
import { isObject } from '../api/response.js';
import { JSON_TYPE, badRequest, errorJson, type Endpoint } from './http.js';

const NGINX_502 =
  '<html><head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n' +
  '<hr><center>nginx</center>\n</body>\n</html>\n';

/**
 * Each kind: the field it cannot do without, and how it answers: as a status fault with these fields (the
 * test's own win), or in its own way (the status sent, 0 for none). Delay and tamper only change the normal answer.
 */
type Kind = { needs?: keyof Fault; like?: (endpoint: Endpoint) => Partial<Fault>; answer?: (fault: Fault, res: ServerResponse) => number };
const KINDS: Record<string, Kind> = {
  status: { needs: 'status', like: () => ({}) },
  html: { like: () => ({ status: 502, body: NGINX_502, headers: { 'Content-Type': 'text/html' } }) },
  truncated: { like: () => ({ status: 200, body: '{"status":"success","data":["a","b' }) },
  empty: { like: () => ({ status: 200, body: '' }) },
  'wrong-shape': {
    like: (endpoint) => ({
      status: 200,
      body: endpoint === 'report' ? '{"status":"success","data":"nope"}' : '{"status":"success","data":{"weird":true}}',
    }),
  },
  huge: { answer: ({ sizeMb = 300 }, res) => streamHuge(res, sizeMb) },
  // The socket stays open until the client leaves or close() destroys it.
  hang: { answer: () => 0 },
  stall: {
    answer: (_fault, res) => {
      res.writeHead(200, { 'Content-Type': JSON_TYPE });
      res.write('{"status":"success","msg":"","data":["a","b');
      return 200;
    },
  },
  reset: { answer: (_fault, res) => (res.socket?.destroy(), 0) },
  delay: { needs: 'ms' },
  tamper: { needs: 'append' },
};

/** Answers with the fault, unless it only changes the normal answer (delay, tamper); the status sent, or undefined. */
export function answerFault(fault: Fault, endpoint: Endpoint, res: ServerResponse): number | undefined {
  const { like, answer } = KINDS[fault.kind];
  if (answer || !like) return answer?.(fault, res);
  const { status = 500, headers = {}, body } = { ...like(endpoint), ...fault };
  // The message avoids words like "not found" so that only the status drives classification.
  const text = body ?? (status >= 400 ? errorJson(`HTTP ${status}`, `Injected fault (HTTP ${status})`) : '');
  const hasType = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
  res.writeHead(status, { 'Content-Length': Buffer.byteLength(text), ...(!hasType && { 'Content-Type': JSON_TYPE }), ...headers });
  res.end(text);
  return status;
}

/** Streams about `sizeMb` MiB of a JSON array of strings, at the pace the client reads. */
function streamHuge(res: ServerResponse, sizeMb: number): number {
  const chunk = Buffer.from(`"${'a'.repeat(1022)}",`.repeat(64));
  const total = Math.round(sizeMb * 1024 * 1024);
  let sent = 0;
  let gone = false;
  res.once('close', () => (gone = true));
  res.writeHead(200, { 'Content-Type': JSON_TYPE });
  res.write('{"status":"success","msg":"","data":[');
  const pump = (): void => {
    while (sent < total) {
      if (gone || res.destroyed) return; // the client went away: stop quietly
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end('"end"]}');
  };
  pump();
  return 200;
}

/** Each field a test may set besides the kind: whether a value is one it can mean, and so its type. */
const FIELDS = {
  /** Absent: either endpoint (and, for op, any op). */
  endpoint: (v: unknown): v is Endpoint => v === 'bucket' || v === 'report',
  op: (v: unknown): v is string => typeof v === 'string',
  /** How many matching requests it still applies to (default 1). */
  count: (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1,
  // 1xx are interim answers, not something a fault can end a request with.
  status: (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 200 && (v as number) <= 599,
  headers: (v: unknown): v is Record<string, string> => isObject(v) && Object.values(v).every((header) => typeof header === 'string'),
  body: (v: unknown): v is string => typeof v === 'string',
  sizeMb: (v: unknown): v is number => typeof v === 'number' && v > 0 && v <= 16384,
  ms: (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0,
  /** tamper: names appended to the profile right after a successful mutation. */
  append: (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'),
};

type Guarded<G> = G extends (v: unknown) => v is infer T ? T : never;
export type Fault = { kind: string; count: number } & { [K in keyof typeof FIELDS]?: Guarded<(typeof FIELDS)[K]> };

/** Checks one fault as posted by a test, so that a typo (a kind, a field, a value) fails loudly instead of never matching. */
export function parseFault(raw: unknown, index = 0): Fault {
  const fail = (message: string) => badRequest(`faults[${index}]: ${message}`);
  if (!isObject(raw) || typeof raw.kind !== 'string' || !Object.hasOwn(KINDS, raw.kind)) {
    throw fail(`must be an object whose kind is one of ${Object.keys(KINDS).join(', ')}`);
  }
  const needed = KINDS[raw.kind].needs;
  if (needed !== undefined && raw[needed] === undefined) throw fail(`a ${raw.kind} fault needs ${needed}`);
  for (const [key, value] of Object.entries(raw)) {
    const check = Object.hasOwn(FIELDS, key) ? FIELDS[key as keyof typeof FIELDS] : undefined;
    if (key !== 'kind' && !check?.(value)) throw fail(`${key} is no field of a fault, or not a value it takes`);
  }
  return { count: 1, ...raw } as Fault;
}

/** FIFO of faults; the first one matching a request is used, once per unit of its count. */
export class FaultQueue {
  private faults: Fault[] = [];

  /** Appends `{"faults":[...]}`; all are checked before any is queued. */
  add(input: Record<string, unknown>): number {
    if (!Array.isArray(input.faults)) throw badRequest('expected {"faults":[...]}');
    const parsed = input.faults.map((raw, i) => parseFault(raw, i));
    this.faults.push(...parsed);
    return parsed.length;
  }

  clear(): void {
    this.faults = [];
  }

  /** Takes one use of the first fault matching the request. */
  take(endpoint: Endpoint, op: string | undefined): Fault | undefined {
    const i = this.faults.findIndex(
      (f) =>
        (f.endpoint === undefined || f.endpoint === endpoint) &&
        (f.op === undefined || f.op === op) &&
        // A tamper is a concurrent change after a mutation; on anything else it would just be lost.
        (f.kind !== 'tamper' || (endpoint === 'bucket' && op !== undefined && op !== 'viewBucketList')),
    );
    const f = this.faults[i];
    if (f && --f.count <= 0) this.faults.splice(i, 1);
    return f;
  }
}
