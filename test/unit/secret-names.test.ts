// Names that hold a known token: every line that does is named, with the input's invalid names, in one error.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { SECRET_NAME_REASON, refuseSecretNames } from '../../src/core/secret-names.js';

const IN_USE = '3f9a1c0de2b74a6f8e5d9c3b2a1f0e7d';
const STORED = 'ctxb7secret9f8e7d6c5b4a';

function refusal(run: () => void): UsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('nothing was refused');
}

describe('refuseSecretNames', () => {
  it('names each line holding a token (two tokens on consecutive lines, one twice on a line), then the invalid names', () => {
    const content = Buffer.from(`alpha-data\n${IN_USE}\nx-${STORED}-${IN_USE}\nbravo\n`);
    const error = refusal(() =>
      refuseSecretNames([{ origin: { kind: 'file', path: 'list.txt' }, content }], [IN_USE, STORED], {
        invalid: [{ where: 'list.txt:3', name: `x-${STORED}-${IN_USE}`, reason: 'too long' }, { where: 'list.txt:5', name: 'Bad_Name', reason: 'upper-case letters are not allowed' }],
        invalidCount: 2,
      }),
    );
    expect(error.message).toBe('2 lines hold a name that looks like the API token (and 1 invalid bucket name); nothing was sent');
    expect(error.details).toEqual([`list.txt:2: ${SECRET_NAME_REASON}`, `list.txt:3: ${SECRET_NAME_REASON}`, 'list.txt:5: "Bad_Name": upper-case letters are not allowed']);
  });

  it('the first 20 lines, then how many more', () => {
    const content = Array.from({ length: 25 }, (_, i) => (i % 2 ? IN_USE : STORED)).join('\n');
    const error = refusal(() => refuseSecretNames([{ origin: { kind: 'stdin' }, content }], [IN_USE, STORED]));
    expect(error.message).toBe('25 lines hold a name that looks like the API token; nothing was sent');
    expect(error.details).toHaveLength(21);
    expect(error.details![19]).toBe(`stdin:20: ${SECRET_NAME_REASON}`);
    expect(error.details![20]).toBe('… and 5 more');
  });

  it('no token, no refusal (invalid names are left to the name reader\'s own error)', () => {
    expect(() => refuseSecretNames([{ origin: { kind: 'arg', index: 1 }, content: 'alpha-data' }], [IN_USE], { invalid: [{ where: 'arg 1', name: 'X', reason: 'r' }], invalidCount: 1 })).not.toThrow();
  });
});
