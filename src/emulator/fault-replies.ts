// Faults as the emulator answers them: statuses, HTML pages, cut-off, empty and wrong-shaped bodies, huge
// answers, hangs, stalls and resets, so the client's handling can be tested against a real socket.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault } from './faults.js';
import { JSON_TYPE, errorJson, type Endpoint } from './http.js';
import type { EmulatorCore, RequestRecord } from './types.js';

/** Answers a request with the misbehaviour a test queued instead of processing it. */
export function applyFault(
  emu: EmulatorCore,
  fault: Fault,
  endpoint: Endpoint,
  op: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  record: RequestRecord,
): void {
  const raw = (status: number, body: string, headers: Record<string, string> = {}) => {
    record.status = status;
    res.writeHead(status, { 'Content-Length': Buffer.byteLength(body), ...headers });
    res.end(body);
  };
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? 500;
      const headers = { ...fault.headers };
      const hasType = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
      if (!hasType) headers['Content-Type'] = JSON_TYPE;
      // The message avoids words like "not found" so that only the status drives classification.
      const body = fault.body ?? (status >= 400 ? errorJson(`HTTP ${status}`, `Injected fault (HTTP ${status})`) : '');
      return raw(status, body, headers);
    }
    case 'html':
      return raw(
        502,
        '<html><head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n' +
          '<hr><center>nginx</center>\n</body>\n</html>\n',
        { 'Content-Type': 'text/html' },
      );
    case 'truncated':
      return raw(200, '{"status":"success","data":["a","b', { 'Content-Type': JSON_TYPE });
    case 'empty':
      return raw(200, '', { 'Content-Type': JSON_TYPE });
    case 'wrong-shape': {
      const body =
        fault.body ??
        (endpoint === 'report' ? '{"status":"success","data":"nope"}' : '{"status":"success","data":{"weird":true}}');
      return raw(200, body, { 'Content-Type': JSON_TYPE });
    }
    case 'huge':
      record.status = 200;
      return streamHuge(res, fault.sizeMb ?? 300);
    case 'hang':
      return; // the socket stays open until the client leaves or close() destroys it
    case 'stall':
      record.status = 200;
      res.writeHead(200, { 'Content-Type': JSON_TYPE });
      res.write('{"status":"success","msg":"","data":["a","b');
      return;
    case 'reset':
      req.socket.destroy();
      return;
    default:
      // delay and tamper change normal processing and never reach here.
      throw new Error(`unexpected fault kind ${fault.kind} for ${endpoint} ${op ?? ''}`);
  }
}

/** Streams about `sizeMb` MiB of a JSON array of strings, at the pace the client reads. */
function streamHuge(res: ServerResponse, sizeMb: number): void {
  const item = `"${'a'.repeat(1022)}",`;
  const chunk = Buffer.from(item.repeat(64));
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
}
