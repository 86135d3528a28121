// The proxy environment as the transport reads it (proxy-transport.ts tunnels through the proxy chosen here): which variable gives
// the proxy for a URL and which NO_PROXY entry exempts it (a proxy URL is shown by core/secrets.ts). Pure: it
// reads the environment it is given, never process.env, so doctor can explain what the transport will do.
import { portOf } from '../core/urls.js';

export interface ProxyChoice {
  /** As spelled in the environment. */
  variable: string;
  value: string;
}

/**
 * The proxy variable that applies to `target`, by the rules of undici's EnvHttpProxyAgent:
 * https uses https_proxy, HTTPS_PROXY, then the http ones; http uses http_proxy, HTTP_PROXY. The lower-case
 * spelling wins when both are set, even when it is empty.
 */
export function proxyVariableFor(target: URL, env: NodeJS.ProcessEnv): ProxyChoice | undefined {
  const http = firstSet(env, ['http_proxy', 'HTTP_PROXY']);
  if (target.protocol === 'https:') {
    const https = firstSet(env, ['https_proxy', 'HTTPS_PROXY']);
    if (https?.value) return https;
  }
  return http?.value ? http : undefined;
}

/** NO_PROXY as the transport reads it: no_proxy first, then NO_PROXY. */
export function noProxyVariable(env: NodeJS.ProcessEnv): ProxyChoice | undefined {
  return firstSet(env, ['no_proxy', 'NO_PROXY']);
}

function firstSet(env: NodeJS.ProcessEnv, names: string[]): ProxyChoice | undefined {
  for (const variable of names) if (env[variable] !== undefined) return { variable, value: env[variable]! };
  return undefined;
}

/**
 * The NO_PROXY entry that exempts `target` from the proxy, or undefined. Entries are separated by commas or
 * whitespace; `*` alone exempts every host; an entry matches its host and every subdomain (`example.com` and
 * `.example.com` and `*.example.com` all match `api.example.com`); `host:port` matches that port only.
 * IP addresses match exactly (no CIDR ranges), as in the transport.
 */
export function noProxyMatch(target: URL, noProxy: string): string | undefined {
  if (noProxy === '*') return '*';
  const hostname = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = portOf(target);
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const host = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    const entryPort = parsed ? Number.parseInt(parsed[2]!, 10) : 0;
    if (entryPort && entryPort !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return entry;
  }
  return undefined;
}

/** The proxy the transport will use for `target`, or undefined when none is set or NO_PROXY exempts it. */
export function proxyInEffect(target: URL, env: NodeJS.ProcessEnv): ProxyChoice | undefined {
  const proxy = proxyVariableFor(target, env);
  if (!proxy) return undefined;
  const noProxy = noProxyVariable(env);
  return noProxy && noProxyMatch(target, noProxy.value) ? undefined : proxy;
}
