// A request body as the emulator's log keeps it (contract section 13: no token, bodies of any size): the
// value of every `"token"` field, and every form of every token seen in the request (the emulator's own,
// the query's, the body's fields; as long as the mask searches for) as `***`, then cut to the log's length. The whole body is scanned once
// for its token fields, but only the kept head (plus room for a token crossing the cut) is copied and
// masked: a body of 8 MiB costs one search, not a parse and a second 8 MiB string.
import { closingQuote } from '../core/exact-json.js';
import { maskSecret, secretForms } from '../core/secrets.js';

/** A JSON key (escapes allowed, bounded so the search cannot backtrack far) followed by a string's opening quote. */
const KEY = /"([^"\\]{0,40}(?:\\.[^"\\]{0,40}){0,12})"\s*:\s*"/g;

export function loggedBody(text: string, tokens: readonly string[], chars: number): string {
  const fields = tokenFields(text);
  const secrets = [...new Set([...tokens, ...fields.map((f) => f.value)])];
  const room = secrets.reduce((most, secret) => secretForms(secret).reduce((m, form) => Math.max(m, form.length), most), 0);
  const window = chars + room;
  let head = '';
  let at = 0;
  for (const field of fields) {
    if (field.start >= window) break;
    head += text.slice(at, field.start) + '***';
    at = field.end;
  }
  if (at < window) head += text.slice(at, window);
  return maskSecret(head, secrets).slice(0, chars);
}

/** The string values of every `"token"` key in the body (at any depth), where they lie and what they decode to. */
function tokenFields(text: string): Array<{ start: number; end: number; value: string }> {
  if (!text.includes('"')) return [];
  const spans: ReturnType<typeof tokenFields> = [];
  KEY.lastIndex = 0;
  for (let match = KEY.exec(text); match; match = KEY.exec(text)) {
    const start = KEY.lastIndex;
    const end = closingQuote(text, start);
    if (end < 0) break;
    KEY.lastIndex = end + 1;
    if (decode(match[1]!) !== 'token') continue;
    spans.push({ start, end, value: decode(text.slice(start, end)) ?? text.slice(start, end) });
  }
  return spans;
}

function decode(content: string): string | undefined {
  if (!content.includes('\\')) return content;
  try {
    return JSON.parse(`"${content}"`) as string;
  } catch {
    return undefined;
  }
}
