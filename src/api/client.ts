// The API client: builds the two requests exactly as contract section 4 says and reads their answers.
// It speaks HTTP and knows nothing of terminals or commander.
import { AuthError, NetworkError, NotFoundError, PendingError, ResponseError, type ScpctlError } from '../errors.js';
import { endpointUrl } from '../core/urls.js';
import { WireBody, bodyBytes, type BucketOp } from '../core/wire.js';
import { checkMutationAnswer, extractBucketList, extractRecords, readResponse, type JsonObject, type ReadOptions } from './response.js';
import { post, type HttpResponse, type TransportOptions } from './transport.js';
import { AnswerBuffer } from './attempt.js';
import { BucketList } from './bucket-list.js';
import { scanReportPage } from './report-page-scan.js';

export interface ClientOptions {
  baseUrl: URL;
  token: string;
  /** Other tokens the run knows (other contexts'): masked with the token. */
  alsoMasked?: readonly string[];
  userAgent: string;
  transport: TransportOptions;
  /**
   * Where the token came from (`SCPCTL_TOKEN`, `--token-file FILE`, ...) and what to do when the service
   * rejects it: a rejection's message names the one and its hint is the other.
   */
  tokenOrigin?: TokenOrigin;
}

export interface TokenOrigin {
  name: string;
  hint: string;
}

export interface BucketAnswer {
  body: unknown;
}

export class ScpClient {
  /** Report pages are read into these two in turn (see AnswerBuffer): a page is written while the next is read. */
  private readonly pageBuffers: AnswerBuffer[] = [];
  private pageCount = 0;

  private readonly secrets: readonly string[];
  private readonly headers: Record<string, string>;

  constructor(private readonly options: ClientOptions) {
    this.secrets = [options.token, ...(options.alsoMasked ?? [])];
    this.headers = { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': options.userAgent };
  }

  /** One change: `POST /api/v1/storage_constraint_profile?token&name&op`, its body as core/wire.ts's bodyBytes writes it. */
  async bucketOp(profile: string, op: Exclude<BucketOp, 'viewBucketList'>, body: WireBody): Promise<BucketAnswer> {
    let response: HttpResponse | undefined;
    try {
      response = await this.sendBucketOp(profile, op, body);
      const what = `${op} ${profile}`;
      const answer = readAnswer(response, what, this.secrets);
      checkMutationAnswer(answer, { ...response, secret: this.secrets }, what);
      return { body: answer };
    } catch (error) {
      throw explainMutationFailure(this.explained(error, profile), response, profile);
    }
  }

  private sendBucketOp(profile: string, op: BucketOp, body: WireBody): Promise<HttpResponse> {
    const url = endpointUrl(this.options.baseUrl, 'storage_constraint_profile');
    url.search = queryString([['token', this.options.token], ['name', profile], ['op', op]]);
    return post({ url, headers: this.headers, body }, this.options.transport);
  }

  /** The list: one read, one value (bucket-list.ts), its forms made from the answer's bytes where they are plain. */
  async viewList(profile: string): Promise<BucketList> {
    // bodyBytes of no lists: `{}`, the view's body (contract section 4).
    const response = await this.sendBucketOp(profile, 'viewBucketList', bodyBytes([]));
    const what = `viewBucketList ${profile}`;
    return BucketList.read(profile, response, what, () => this.extracted(response, what, extractBucketList, undefined, profile));
  }

  /**
   * What the client knows of a failure that the answer does not say: a rejected token's error names where
   * the token came from, with the hint that fits it (ClientOptions.tokenOrigin); a profile that does not
   * exist is named (NotFoundError.profile), for the commands' suggestion of one that does.
   */
  private explained(error: unknown, profile?: string): unknown {
    if (error instanceof NotFoundError && profile !== undefined) error.profile = profile;
    const origin = this.options.tokenOrigin;
    if (!(error instanceof AuthError) || origin === undefined) return error;
    return new AuthError(`${error.message} (the token from ${origin.name})`, { hint: origin.hint, cause: error });
  }

  /** The answer read by every rule of response.ts, then `extract`ed; a failure explained (see explained). */
  private extracted<T>(response: HttpResponse, what: string, extract: Extractor<T>, options?: ReadOptions, profile?: string): T {
    let body: unknown;
    try {
      body = readAnswer(response, what, this.secrets, options);
    } catch (error) {
      throw this.explained(error, profile);
    }
    return extract(body, response.body, this.secrets);
  }

  /**
   * One report page: `POST /api/v1/report?<params>` with the token in the body, never in the URL.
   * `observe` sees the HTTP answer (status, headers) before it is read, even when it is an error.
   */
  async report(params: ReadonlyArray<[string, string]>, observe?: (response: HttpResponse) => void): Promise<JsonObject[]> {
    const response = await this.postReport(params);
    observe?.(response);
    return this.recordsOf(response);
  }

  /**
   * One report page whose records are built a slice at a time (`report --all`): memory stays flat however many
   * pages follow. The page is valid until the one after the next is asked for.
   */
  async reportPage(params: ReadonlyArray<[string, string]>): Promise<ReportPage> {
    const buffer = (this.pageBuffers[this.pageCount++ % 2] ??= new AnswerBuffer());
    const answer = await this.postReport(params, buffer);
    const bytes = buffer.bytes();
    const slices = scanReportPage(bytes);
    if (slices && this.skeletonReadsAsRecords(answer, slices.skeleton)) {
      return {
        length: slices.length,
        canonical: (from, to) => slices.canonical(from, to),
        records: (from, to) => {
          try {
            return slices.records(from, to);
          } catch (error) {
            // The scan checks brackets and strings only; JSON.parse judges the rest of a record (`tru`, `01`,
            // a raw control character). The ordinary reader then words the refusal, exit 7 with the answer
            // quoted and the token masked, as it would have for the whole page; V8's own message would quote
            // the answer around the fault unmasked.
            if (error instanceof SyntaxError) this.recordsOf({ ...answer, body: bytes.toString('utf8') });
            throw error;
          }
        },
      };
    }
    const records = this.recordsOf({ ...answer, body: bytes.toString('utf8') });
    return { length: records.length, records: (from, to) => records.slice(from, to) };
  }

  /** Whether the answer, its records left out, is a success that holds records (the scanned ones). */
  private skeletonReadsAsRecords(answer: HttpResponse, skeleton: string): boolean {
    try {
      const body = readAnswer({ ...answer, body: skeleton }, 'report', this.secrets, { exact: true });
      return extractRecords(body, skeleton).length === 0;
    } catch {
      // an error answer: read whole, so that it is worded from the answer as it came
      return false;
    }
  }

  private postReport(params: ReadonlyArray<[string, string]>, into?: AnswerBuffer): Promise<HttpResponse> {
    const url = endpointUrl(this.options.baseUrl, 'report');
    url.search = queryString(params);
    const body = new WireBody([Buffer.from(JSON.stringify({ token: this.options.token }))]);
    return post({ url, headers: this.headers, body, into }, this.options.transport);
  }

  private recordsOf(response: HttpResponse): JsonObject[] {
    return this.extracted(response, 'report', extractRecords, { exact: true });
  }
}

/** A reader of an answer's shape (response.ts), given its body, and its text to quote with the tokens masked. */
type Extractor<T> = (body: unknown, raw: string, secret: readonly string[]) => T;

/** A page of report records, built on demand: records `from` to `to` (exclusive). */
export interface ReportPage {
  readonly length: number;
  records(from: number, to: number): JsonObject[];
  /** Records `from` to `to` as the bytes they came in, where each is already what would be written of it. */
  canonical?(from: number, to: number): Buffer[] | null;
}

/**
 * Percent-encoding (RFC 3986: a space is %20), not the form encoding of URLSearchParams, which sends a
 * space as "+" that strict servers read as a plus sign.
 */
export function queryString(params: ReadonlyArray<readonly [string, string]>): string {
  return params.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
}

/** readResponse, saying how many attempts a failure that outlived the retries took; the token masked in its messages. */
function readAnswer(response: HttpResponse, what: string, token: readonly string[], options?: ReadOptions): unknown {
  try {
    return readResponse({ ...response, secret: token }, what, options);
  } catch (error) {
    if (error instanceof NetworkError && response.attempts > 1) error.message += ` (after ${response.attempts} attempts)`;
    throw error;
  }
}

/**
 * Whether a failed mutation may still have reached the service: an attempt's answer timed out or was cut,
 * the service answered 5xx, or its answer could not be read. Not when no attempt left this machine nor
 * when the service refused it (429 after retries that all got an answer). `response`: the last answer.
 */
function mayHaveBeenApplied(error: unknown, response?: HttpResponse): boolean {
  if (error instanceof ResponseError) return true;
  if (!(error instanceof NetworkError)) return false;
  if (response === undefined) return error.mayHaveArrived;
  return response.status >= 500 || response.sentBefore === true;
}

/**
 * What a failed mutation means for the list, said once for every command that changes one (append, sync,
 * apply, restore...). A first attempt whose answer was lost and whose retry met "pending" most likely met
 * itself: say so instead of blaming someone else's change. Any other failure after the request may have
 * left this machine may have been applied.
 */
function explainMutationFailure(error: unknown, response: HttpResponse | undefined, profile: string): unknown {
  if (error instanceof PendingError && response?.lostAnswer !== undefined) {
    const explained = new PendingError(
      `${profile}: the first attempt got no answer (${response.lostAnswer}) and the retry found a change pending: ` +
        'the first attempt may have been applied',
      { hint: `Check with: scpctl buckets view ${profile} --wait` },
    );
    explained.mayBeOwnChange = true;
    return explained;
  }
  if (!mayHaveBeenApplied(error, response)) return error;
  const failure = error as ScpctlError;
  failure.message += '; the change may have been applied';
  const check = `Check with: scpctl buckets view ${profile}. Sending the same change again is safe.`;
  failure.hint = failure.hint ? `${check} ${failure.hint}` : check;
  return failure;
}
