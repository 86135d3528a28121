// Reading what comes back (contract section 5) and classifying API errors (section 6).
import { describe, it, expect } from 'vitest';
import {
  checkMutationAnswer,
  classifyApiError,
  errorMessageOf,
  extractBucketList,
  extractRecords,
  quoteBody,
  readResponse,
  type RawResponse,
} from '../../src/api/response.js';
import {
  ApiError,
  AuthError,
  NetworkError,
  NotFoundError,
  PendingError,
  ResponseError,
  ScpctlError,
} from '../../src/errors.js';
import { caught } from './caught.js';

const raw = (status: number, body: string): RawResponse => ({ status, body });
const json = (status: number, value: unknown): RawResponse => raw(status, JSON.stringify(value));


const WHAT = 'viewBucketList finance';
const failure = (response: RawResponse, what = WHAT): ScpctlError => caught(() => readResponse(response, what));

describe('readResponse: success', () => {
  it('returns the usual success body', () => {
    const body = { status: 'success', msg: '', data: ['bucket-1', 'bucket-2'] };
    expect(readResponse(json(200, body), WHAT)).toEqual(body);
  });

  it('accepts a body without status', () => {
    expect(readResponse(json(200, { data: [] }), WHAT)).toEqual({ data: [] });
  });

  it('accepts a bare array body', () => {
    expect(readResponse(json(200, [{ a: 1 }]), WHAT)).toEqual([{ a: 1 }]);
  });

  it.each(['success', 'SUCCESS', 'Success', ' success '])('accepts status %j', (status) => {
    expect(readResponse(json(200, { status, data: 'x' }), WHAT)).toMatchObject({ data: 'x' });
  });

  it('accepts other 2xx statuses', () => {
    expect(readResponse(json(201, { status: 'success' }), WHAT)).toEqual({ status: 'success' });
  });
});

describe('readResponse: errors', () => {
  it('treats HTTP 400 with a JSON body as an error', () => {
    const error = failure(json(400, { status: 'error', errors: ['Invalid op'] }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain('Invalid op');
  });

  it('treats HTTP 400 as an error even when the body says success', () => {
    const error = failure(json(400, { status: 'success', message: 'Bad request' }));
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain('Bad request');
  });

  it.each(['error', 'ERROR', 'Error', 'eRRoR', ' error '])('treats "status": %j with HTTP 200 as an error', (status) => {
    const error = failure(json(200, { status, errors: ['Something broke'] }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toContain('Something broke');
  });

  it('reads the contract example as an authentication error with errorCode as prefix', () => {
    const error = failure(json(200, { status: 'error', errorCode: 'Authorization Error', errors: ['Invalid token'] }));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain('Authorization Error: Invalid token');
  });

  it('names the request in the message', () => {
    expect(failure(json(400, { errors: ['x'] }), 'appendToBucketList finance').message).toContain('appendToBucketList finance');
  });

  it('gives a message even when the error body has none', () => {
    const error = failure(json(200, { status: 'error' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message.length).toBeGreaterThan(WHAT.length + 2);
    expect(failure(json(418, {})).message).toContain('418');
  });

  it('classifies by the error words: not exist → 4, pending → 5, token → 3', () => {
    expect(failure(json(200, { status: 'error', errors: ['Profile finance does not exist'] })).exitCode).toBe(4);
    expect(failure(json(400, { status: 'error', msg: 'A change is PENDING on this profile' })).exitCode).toBe(5);
    expect(failure(json(400, { status: 'error', error: 'Token expired' })).exitCode).toBe(3);
  });

  it('classifies by errorCode too', () => {
    const error = failure(json(200, { status: 'error', errorCode: 'PENDING_CHANGE', errors: ['busy, try later'] }));
    expect(error).toBeInstanceOf(PendingError);
    expect(error.exitCode).toBe(5);
  });

  it.each([401, 403])('classifies HTTP %i as authentication (3)', (status) => {
    const error = failure(json(status, { status: 'error', errors: ['Forbidden'] }));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(3);
  });

  it.each([429, 500, 502, 503, 504])('classifies HTTP %i as a network failure (6) once retries are spent', (status) => {
    const error = failure(json(status, { status: 'error', errors: ['Rate limit exceeded'] }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.exitCode).toBe(6);
    expect(error.message).toContain(String(status));
  });

  it('classifies an error with no special words and HTTP 200 or 400 as exit 1', () => {
    expect(failure(json(200, { status: 'error', errors: ['Invalid bucket list'] })).exitCode).toBe(1);
    expect(failure(json(400, { errors: ['Invalid bucket list'] })).exitCode).toBe(1);
  });

  // The request's own label ("op profile") names the profile; a profile's name must not decide the class.
  it('classifies by the service\'s words, not by the profile name in the request label ("pending-review")', () => {
    const error = failure(json(400, { status: 'error', errors: ['Invalid bucket name'] }), 'appendToBucketList pending-review');
    expect(error.exitCode).toBe(1);
  });

  it('classifies by the service\'s words, not by the profile name in the request label ("oauth-apps")', () => {
    const error = failure(json(200, { status: 'error', errors: ['List too long'] }), 'replaceBucketList oauth-apps');
    expect(error.exitCode).toBe(1);
  });

  it('classifies "Invalid token" as 3 even for a profile called "pending-review"', () => {
    const error = failure(json(200, { status: 'error', errors: ['Invalid token'] }), 'viewBucketList pending-review');
    expect(error.exitCode).toBe(3);
  });
});

describe('errorMessageOf: where the message comes from', () => {
  it('joins an errors array with "; "', () => {
    expect(errorMessageOf({ errors: ['first', 'second', 'third'] }, 400)).toBe('first; second; third');
  });

  it('reads an errors string', () => {
    expect(errorMessageOf({ errors: 'only one' }, 400)).toBe('only one');
  });

  it('prefers errors over message, msg and error', () => {
    expect(errorMessageOf({ error: 'e', msg: 'm', message: 'M', errors: ['E'] }, 400)).toBe('E');
  });

  it('then message over msg and error', () => {
    expect(errorMessageOf({ error: 'e', msg: 'm', message: 'M' }, 400)).toBe('M');
  });

  it('then msg over error', () => {
    expect(errorMessageOf({ error: 'e', msg: 'm' }, 400)).toBe('m');
  });

  it('then error', () => {
    expect(errorMessageOf({ error: 'e' }, 400)).toBe('e');
  });

  it('skips an empty msg (the usual success shape) to the next place', () => {
    expect(errorMessageOf({ status: 'error', msg: '', error: 'the real one' }, 200)).toBe('the real one');
  });

  it('prefixes errorCode', () => {
    expect(errorMessageOf({ errorCode: 'Authorization Error', errors: ['Invalid token'] }, 200)).toBe(
      'Authorization Error: Invalid token',
    );
    expect(errorMessageOf({ errorCode: 'E42', message: 'boom' }, 400)).toBe('E42: boom');
  });

  it('keeps errorCode alone when there is no message', () => {
    expect(errorMessageOf({ errorCode: 'E42' }, 400)).toMatch(/^E42: /);
  });

  it('mentions the HTTP status when nothing else is said', () => {
    expect(errorMessageOf({}, 502)).toContain('502');
  });
});

describe('readResponse: JSON that is neither an object nor an array', () => {
  it('is exit 7, quoting the answer with the token masked', () => {
    const secret = 'tok-3f9a7c21e5';
    const error = failure({ status: 200, body: JSON.stringify(`echo ${secret} back`), secret });
    expect(error.exitCode).toBe(7);
    expect(error.message).toContain('neither an object nor an array');
    expect(error.message).toContain('echo *** back');
    expect(error.message).not.toContain(secret);
  });
});

describe('readResponse: bodies that are not JSON', () => {
  const html = '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>' + 'x'.repeat(500) + '</body></html>';

  it('is a ResponseError (exit 7) for an HTML page with HTTP 200, quoting the status and the body start', () => {
    const error = failure(raw(200, html));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.exitCode).toBe(7);
    expect(error.message).toContain('200');
    expect(error.message).toContain('<html><head><title>502 Bad Gateway</title>');
  });

  it('is exit 7 for an HTML page with HTTP 404, with a hint about the base URL', () => {
    const error = failure(raw(404, '<html><body>Not Found</body></html>'));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toContain('404');
    expect(error.hint).toMatch(/base URL/i);
  });

  it('quotes at most 200 characters of the body', () => {
    const body = 'y'.repeat(1_000);
    const error = failure(raw(200, body));
    expect(error.message).toContain('y'.repeat(200));
    expect(error.message).not.toContain('y'.repeat(201));
  });

  it('is exit 7 for truncated JSON', () => {
    const error = failure(raw(200, '{"status":"success","data":["bucket-1","buck'));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toContain('200');
    expect(error.message).toMatch(/status.*success.*bucket-1.*buck/);
  });

  it('is exit 7 for an empty body', () => {
    const error = failure(raw(200, ''));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toContain('200');
  });

  it('is exit 7 for a whitespace-only body', () => {
    expect(failure(raw(200, ' \r\n\t ')).exitCode).toBe(7);
  });

  it('still says 6 for a proxy\'s HTML on HTTP 502 (5xx after retries), quoting the status and body', () => {
    const error = failure(raw(502, html));
    expect(error.exitCode).toBe(6);
    expect(error.message).toContain('502');
    expect(error.message).toContain('Bad Gateway');
  });

  it('still says 3 for an HTML page with HTTP 401', () => {
    expect(failure(raw(401, '<html>Unauthorized</html>')).exitCode).toBe(3);
  });

  it('keeps the quoted body on one line', () => {
    const error = failure(raw(200, 'line one\nline two\r\nline three'));
    expect(error.message).not.toMatch(/[\r\n]/);
    expect(error.message).toContain('line one line two line three');
  });
});

describe('quoteBody', () => {
  it('quotes short bodies whole', () => {
    expect(quoteBody('oops')).toBe('"oops"');
  });

  it('cuts long bodies at 200 characters and counts what was cut', () => {
    const quoted = quoteBody('z'.repeat(300));
    expect(quoted).toBe(JSON.stringify('z'.repeat(200)) + '… (100 more characters)');
  });

  it('says when the body is empty', () => {
    expect(quoteBody('')).not.toBe('""');
    expect(quoteBody('   ')).toMatch(/empty/);
  });
});

describe('classifyApiError', () => {
  it.each([
    ['Profile does not exist', 4],
    ['profile NOT FOUND', 4],
    ['Not Exist', 4],
    ['Change pending', 5],
    ['PENDING', 5],
    ['Invalid Token', 3],
    ['TOKEN missing', 3],
    ['Authentication failed', 3],
    ['Authorization Error: denied', 3],
    ['Unauthorized', 3],
    ['UNAUTHORISED', 3],
    ['Something else', 1],
  ])('%j → %i', (message, code) => {
    expect(classifyApiError(message, 200).exitCode).toBe(code);
  });

  it('checks "not exist"/"not found" before "pending" before token words', () => {
    expect(classifyApiError('profile not found while a change is pending; token ok', 200).exitCode).toBe(4);
    expect(classifyApiError('pending change; your token is fine', 200).exitCode).toBe(5);
  });

  it('returns the classes, not just codes', () => {
    expect(classifyApiError('does not exist', 400)).toBeInstanceOf(NotFoundError);
    expect(classifyApiError('pending', 400)).toBeInstanceOf(PendingError);
    expect(classifyApiError('bad token', 400)).toBeInstanceOf(AuthError);
    expect(classifyApiError('weird', 400)).toBeInstanceOf(ApiError);
  });

  it.each([
    [401, 3],
    [403, 3],
    [429, 6],
    [500, 6],
    [503, 6],
    [599, 6],
    [400, 1],
    [404, 1],
    [409, 1],
    [422, 1],
    [200, 1],
  ])('a message without special words and HTTP %i → %i', (status, code) => {
    expect(classifyApiError('Request rejected', status).exitCode).toBe(code);
  });

  it('keeps the message', () => {
    expect(classifyApiError('op x: Profile does not exist', 200).message).toBe('op x: Profile does not exist');
  });

  it('adds hints for auth, not found and pending', () => {
    expect(classifyApiError('bad token', 200).hint).toMatch(/login|SCPCTL_TOKEN/);
    expect(classifyApiError('pending', 200).hint).toMatch(/--wait/);
    expect(classifyApiError('not found', 200).hint).toBeTruthy();
  });
});

describe('extractBucketList', () => {
  const list = (value: unknown): string[] => extractBucketList(value, JSON.stringify(value));

  it('reads the documented answer (data as an array)', () => {
    expect(list({ status: 'success', msg: '', data: ['bucket-1', 'bucket-2'] })).toEqual(['bucket-1', 'bucket-2']);
  });

  it.each([
    ['data.list', { data: { list: 'aaa,bbb' } }],
    ['data.bucketList', { data: { bucketList: 'aaa,bbb' } }],
    ['data.buckets', { data: { buckets: 'aaa,bbb' } }],
    ['data', { data: 'aaa,bbb' }],
    ['list', { list: 'aaa,bbb' }],
    ['bucketList', { bucketList: 'aaa,bbb' }],
    ['buckets', { buckets: 'aaa,bbb' }],
  ])('reads %s as a comma-separated string', (_, body) => {
    expect(list(body)).toEqual(['aaa', 'bbb']);
  });

  it.each([
    ['data.list', { data: { list: ['aaa', 'bbb'] } }],
    ['data.bucketList', { data: { bucketList: ['aaa', 'bbb'] } }],
    ['data.buckets', { data: { buckets: ['aaa', 'bbb'] } }],
    ['data', { data: ['aaa', 'bbb'] }],
    ['list', { list: ['aaa', 'bbb'] }],
    ['bucketList', { bucketList: ['aaa', 'bbb'] }],
    ['buckets', { buckets: ['aaa', 'bbb'] }],
  ])('reads %s as an array of strings', (_, body) => {
    expect(list(body)).toEqual(['aaa', 'bbb']);
  });

  it('takes the first present place', () => {
    expect(list({ data: { list: 'one', bucketList: 'two', buckets: 'three' } })).toEqual(['one']);
    expect(list({ data: { bucketList: ['two'], buckets: 'three' }, list: 'four' })).toEqual(['two']);
    expect(list({ data: { buckets: 'three' }, list: 'four' })).toEqual(['three']);
    expect(list({ data: ['five'], list: 'four', buckets: 'six' })).toEqual(['five']);
    expect(list({ list: 'four', bucketList: 'seven', buckets: 'six' })).toEqual(['four']);
    expect(list({ bucketList: 'seven', buckets: 'six' })).toEqual(['seven']);
    expect(list({ status: 'success', msg: '', buckets: ['six'] })).toEqual(['six']);
  });

  it('reads an empty list as no names', () => {
    expect(list({ data: [] })).toEqual([]);
    expect(list({ data: '' })).toEqual([]);
    expect(list({ data: { list: '' } })).toEqual([]);
  });

  it('an empty list that is present wins over later places', () => {
    expect(list({ data: [], list: 'aaa' })).toEqual([]);
  });

  it('drops empty entries of a comma string', () => {
    expect(list({ data: 'aaa,,bbb,' })).toEqual(['aaa', 'bbb']);
  });

  it('keeps the order of the answer', () => {
    expect(list({ data: 'zzz,aaa,mmm' })).toEqual(['zzz', 'aaa', 'mmm']);
  });

  it.each([
    ['a number', { data: 5 }],
    ['a boolean', { data: true }],
    ['an array of numbers', { data: [1, 2] }],
    ['a mixed array', { data: ['aaa', 1] }],
    ['an array of objects', { data: [{ name: 'aaa' }] }],
    ['an object without a known key', { data: { other: 'aaa' } }],
    ['data.list as an object', { data: { list: { a: 1 } } }],
    ['list as a number', { list: 3 }],
    ['no list at all', { status: 'success', msg: '' }],
    ['an empty object', {}],
    ['a bare array', ['aaa', 'bbb']],
    ['a bare string', 'aaa,bbb'],
    ['null', null],
    ['a number body', 42],
  ])('fails with exit 7 on %s', (_, body) => {
    const error = caught(() => list(body));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.exitCode).toBe(7);
  });

  it('quotes the raw body in the shape error', () => {
    const error = caught(() => extractBucketList({ data: 5 }, '{"data": 5}'));
    expect(error.message).toContain('{\\"data\\": 5}');
  });
});

describe('extractRecords', () => {
  const records = (value: unknown) => extractRecords(value, JSON.stringify(value));

  it('reads data as an array of objects', () => {
    expect(records({ status: 'success', msg: '', data: [{ app: 'Dropbox', count: 3 }, { app: 'Box' }] })).toEqual([
      { app: 'Dropbox', count: 3 },
      { app: 'Box' },
    ]);
  });

  it('reads a bare array body', () => {
    expect(records([{ a: 1 }, { b: 2 }])).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('reads empty arrays as no records', () => {
    expect(records({ data: [] })).toEqual([]);
    expect(records([])).toEqual([]);
  });

  it.each([
    ['data as a string', { data: 'x' }],
    ['data as an object', { data: { a: 1 } }],
    ['no data', { status: 'success' }],
    ['data with a number', { data: [{ a: 1 }, 2] }],
    ['data with null', { data: [null] }],
    ['data with an array', { data: [[1, 2]] }],
    ['a bare array of strings', ['a', 'b']],
    ['null', null],
    ['a string', 'text'],
    ['a number', 7],
  ])('fails with exit 7 on %s', (_, body) => {
    const error = caught(() => records(body));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.exitCode).toBe(7);
  });
});

describe('readResponse: the shapes the real service uses (contract section 5)', () => {
  it.each([
    [{ error: 'error', errors: ['Invalid token'] }, 3, 'Invalid token'],
    [{ error: 'error', errors: ['Profile does not exist'] }, 4, 'Profile does not exist'],
    [{ error: 'error', errors: ['A change is pending'] }, 5, 'A change is pending'],
    [{ error: 'Something broke' }, 1, 'Something broke'],
    [{ error: true }, 1, 'without a message'],
    [{ error: { message: 'nested words' } }, 1, 'nested words'],
    [{ error: 'error', errorCode: 'Invalid Request', errors: 'bad op' }, 1, 'Invalid Request: bad op'],
    [{ status: 'ok', data: [], error: 'x' }, null, ''],
  ] as const)('a top-level error key without "status":"success" is an error: %j', (body, code, words) => {
    if (code === null) {
      expect(readResponse(json(200, body), WHAT)).toEqual(body);
      return;
    }
    const error = failure(json(200, body));
    expect(error.exitCode).toBe(code);
    expect(error.message).toContain(words);
    expect(error.message.startsWith(`${WHAT}: `)).toBe(true);
  });

  it.each([null, false, ''])('"error": %j is no error', (value) => {
    expect(readResponse(json(200, { data: ['a'], error: value }), WHAT)).toEqual({ data: ['a'], error: value });
    expect(readResponse(json(200, { status: 'success', data: ['a'], error: value }), WHAT)).toMatchObject({ data: ['a'] });
  });

  it('"error" beside "status":"success" stays a success', () => {
    expect(readResponse(json(200, { status: 'success', msg: '', data: [], error: null }), WHAT)).toMatchObject({ data: [] });
    expect(readResponse(json(200, { status: 'success', data: [], error: 'stale text' }), WHAT)).toMatchObject({ data: [] });
  });

  it('a rejected token as HTTP 403 with the usual error body is exit 3', () => {
    expect(failure(json(403, { status: 'error', errorCode: 'Authorization Error', errors: ['Invalid token'] })).exitCode).toBe(3);
    expect(failure(raw(403, '<html>Forbidden</html>')).exitCode).toBe(3);
  });

  it.each(['', '   ', 'null', '42', '"ok"', 'true'])('an answer that says nothing (%j) is exit 7, never a success', (body) => {
    const error = failure(raw(200, body));
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.exitCode).toBe(7);
  });

  it('report bodies read exactly keep 19-digit integers', () => {
    const body = readResponse(raw(200, '{"status":"success","data":[{"request_id":7196923083554021859}]}'), 'report', { exact: true });
    expect(body).toEqual({ status: 'success', data: [{ request_id: 7196923083554021859n }] });
  });
});

describe('checkMutationAnswer: what a mutation must say to count as applied', () => {
  const check = (body: string) => caught(() => checkMutationAnswer(readResponse(raw(200, body), 'appendToBucketList p'), raw(200, body), 'appendToBucketList p'));
  it.each(['{"status":"success","msg":"","data":{"count":1}}', '{"status":"SUCCESS"}', '{"data":null}', '{"data":{"count":3},"msg":""}'])('%s counts', (body) => {
    expect(() => checkMutationAnswer(JSON.parse(body), raw(200, body), 'op p')).not.toThrow();
  });
  it.each(['{}', '[]', '["a"]', '{"status":"ok"}', '{"msg":"done"}'])('%s is exit 7 (says nothing about the change)', (body) => {
    const error = check(body);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toContain('the answer does not say the change was applied');
  });
  it('"success": false and a failed result are API errors, classified by their words', () => {
    expect(check('{"success":false,"message":"quota exceeded"}')).toBeInstanceOf(ApiError);
    expect(check('{"data":{},"result":"Failure","msg":"no such profile: not found"}')).toBeInstanceOf(NotFoundError);
    expect(check('{"result":"error","msg":"Invalid token"}')).toBeInstanceOf(AuthError);
  });
  it('the token in a failure message is masked', () => {
    const body = '{"success":false,"message":"bad token tok_S3cr3t+/=Zq9"}';
    const error = caught(() => checkMutationAnswer(JSON.parse(body), { status: 200, body, secret: 'tok_S3cr3t+/=Zq9' }, 'op p'));
    expect(error.message).not.toContain('tok_S3cr3t');
  });
});
