// Pure facts about URLs that the client, the emulator and the settings all need: whether a text names its
// scheme, which hosts are loopback, and where an endpoint lives under a base URL. In core/ so that api/ and
// emulator/ need nothing of settings/.

/**
 * Whether `text` starts with a scheme and `//` (RFC 3986: a letter, then letters, digits, `+ . -`): a base
 * URL or a proxy without one is taken as a host. Both cases spelled out rather than /i, whose first use
 * builds V8's case-folding tables at a small view's start.
 */
export function hasScheme(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text);
}

/** Whether a host name is loopback: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || host === '0:0:0:0:0:0:0:1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A hostname as a socket takes it: an IPv6 literal without its URL brackets. */
export function unbracket(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The port a URL connects to, the scheme's default when it names none (1080 for SOCKS). */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : url.protocol.startsWith('socks') ? 1080 : 80;
}

/** `{base}/api/v1/{path}` with the base's own path kept. */
export function endpointUrl(base: URL, path: string): URL {
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}/api/v1/${path}`;
  return url;
}
