// The emulator's request log (contract section 13): no token in a kept body, whatever its size or shape.
import { describe, expect, it } from 'vitest';
import { loggedBody } from '../../src/emulator/logged-body.js';

const OWN = 'emulator-token-0123';

describe('loggedBody', () => {
  it('masks a token field written with escapes, nested, and its copies elsewhere in the head', () => {
    const body = `{"a":{"\\u0074oken":"guess\\u002dtoken-9876"},"note":"guess-token-9876 %s","pad":"${'p'.repeat(100)}"}`;
    const out = loggedBody(body.replace('%s', encodeURIComponent(OWN)), [OWN], 2000);
    expect(out).toBe(`{"a":{"\\u0074oken":"***"},"note":"*** ***","pad":"${'p'.repeat(100)}"}`);
  });

  it('masks a token crossing the cut, so no prefix of it stays', () => {
    const body = `${'x'.repeat(1995)}${OWN}`;
    expect(loggedBody(body, [OWN], 2000)).toBe(`${'x'.repeat(1995)}***`);
  });

  it('leaves a body without tokens as it is, cut', () => {
    expect(loggedBody('{"addList":"a,b"}', [OWN], 8)).toBe('{"addLis');
  });
});
