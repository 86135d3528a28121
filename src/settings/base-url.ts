// A base URL as the user gives it, checked and normalized (contract section 2): a bare host means https, a
// path is kept (without its trailing slash), no credentials, query or /api/v1, and plain http only to
// loopback, because the token would cross the network in clear.
import { UsageError } from '../errors.js';
import { hasScheme, isLoopbackHost } from '../core/urls.js';

export function normalizeBaseUrl(input: string, origin = 'base URL'): URL {
  const text = input.trim();
  const candidate = hasScheme(text) ? text : `https://${text}`;
  if (!URL.canParse(candidate)) throw new UsageError(`${origin}: "${input}" is not a valid URL`);
  const url = new URL(candidate);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${origin}: "${input}" must use https:// (or http:// on loopback)`);
  }
  if (url.username || url.password) throw new UsageError(`${origin}: credentials in the URL are not allowed; use the token settings`);
  if (url.search || url.hash) throw new UsageError(`${origin}: "${input}" must not carry a query or fragment`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${origin}: refusing plain http:// to ${url.hostname}: the token would cross the network in clear text`, {
      hint: `Use https://${url.host}${url.pathname === '/' ? '' : url.pathname} instead.`,
    });
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  if (/\/api\/v1$/.test(url.pathname)) {
    throw new UsageError(`${origin}: leave /api/v1 out of the base URL ("${input}"); scpctl adds it`);
  }
  return url;
}
