// The API client: builds the two requests exactly as contract section 4 says and reads their answers.
// It speaks HTTP and knows nothing of terminals or commander.
import { NetworkError, PendingError, ResponseError } from '../errors.js';
import { maskSecret } from '../core/service-text.js';
import { endpointUrl } from '../settings/resolve.js';
import type { BucketBody, BucketOp } from '../core/wire.js';
import { extractBucketList, extractRecords, readResponse, type JsonObject, type ReadOptions } from './response.js';
import { post, type HttpResponse, type TransportOptions } from './transport.js';

export interface ClientOptions {
  baseUrl: URL;
  token: string;
  userAgent: string;
  transport: TransportOptions;
}

export interface BucketAnswer {
  /** The parsed JSON body. */
  body: unknown;
}

export class ScpClient {
  constructor(private readonly options: ClientOptions) {}

  private headers(): Record<string, string> {
    return {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'User-Agent': this.options.userAgent,
    };
  }

  /** One bucket-list operation: `POST /api/v1/storage_constraint_profile?token&name&op`. */
  async bucketOp(profile: string, op: BucketOp, body: BucketBody): Promise<BucketAnswer & { raw: string }> {
    const url = endpointUrl(this.options.baseUrl, 'storage_constraint_profile');
    url.search = queryString([['token', this.options.token], ['name', profile], ['op', op]]);
    const response = await post({ url, headers: this.headers(), body: JSON.stringify(body) }, this.options.transport);
    const what = `${op} ${profile}`;
    try {
      return { body: readAnswer(response, what, this.options.token), raw: response.body };
    } catch (error) {
      throw op === 'viewBucketList' ? error : explainLostAnswer(error, response, profile);
    }
  }

  async viewBuckets(profile: string): Promise<string[]> {
    const answer = await this.bucketOp(profile, 'viewBucketList', {});
    return quotingMasked((raw) => extractBucketList(answer.body, raw), answer.raw, this.options.token);
  }

  /**
   * One report page: `POST /api/v1/report?<params>` with the token in the body, never in the URL.
   * `observe` sees the HTTP answer (status, headers) before it is read, even when it is an error.
   */
  async report(params: ReadonlyArray<[string, string]>, observe?: (response: HttpResponse) => void): Promise<JsonObject[]> {
    const url = endpointUrl(this.options.baseUrl, 'report');
    url.search = queryString(params);
    const response = await post(
      { url, headers: this.headers(), body: JSON.stringify({ token: this.options.token }) },
      this.options.transport,
    );
    observe?.(response);
    const body = readAnswer(response, 'report', this.options.token, { exact: true });
    return quotingMasked((raw) => extractRecords(body, raw), response.body, this.options.token);
  }
}

/**
 * Percent-encoding (RFC 3986: a space is %20), not the form encoding of URLSearchParams, which sends a
 * space as "+" that strict servers read as a plus sign.
 */
export function queryString(params: ReadonlyArray<readonly [string, string]>): string {
  return params.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
}

/** readResponse, saying how many attempts a failure that outlived the retries took; the token masked in its messages. */
function readAnswer(response: HttpResponse, what: string, token: string, options?: ReadOptions): unknown {
  try {
    return readResponse({ ...response, secret: token }, what, options);
  } catch (error) {
    if (error instanceof NetworkError && response.attempts > 1) error.message += ` (after ${response.attempts} attempts)`;
    throw error;
  }
}

/**
 * Runs an extractor that quotes the raw body when the answer has the wrong shape; on that (rare) path it
 * runs again on the body with the token masked, so that the quote, cut at 200 characters, cannot hold a
 * prefix of it. The good path pays nothing for the mask.
 */
function quotingMasked<T>(extract: (raw: string) => T, raw: string, token: string): T {
  try {
    return extract(raw);
  } catch (error) {
    if (error instanceof ResponseError) return extract(maskSecret(raw, token));
    throw error;
  }
}

/**
 * A mutation whose first answer was lost (timeout, reset) and whose retry met "pending" most likely
 * met its own first attempt: say so instead of blaming someone else's change.
 */
function explainLostAnswer(error: unknown, response: HttpResponse, profile: string): unknown {
  if (error instanceof ResponseError) {
    // The request reached the service; an answer we cannot read says nothing about whether it was applied.
    error.message += ' (the change may or may not have been applied)';
    const check = `Check with: scpctl buckets view ${profile}`;
    error.hint = error.hint ? `${error.hint} ${check}` : check;
    return error;
  }
  if (!(error instanceof PendingError) || response.lostAnswer === undefined) return error;
  const explained = new PendingError(
    `${profile}: the first attempt got no answer (${response.lostAnswer}) and the retry found a change pending: ` +
      'the first attempt may have been applied',
    { hint: `Check with: scpctl buckets view ${profile} --wait` },
  );
  explained.mayBeOwnChange = true;
  return explained;
}
