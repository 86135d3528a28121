// Environment variables a shell can hand down without the admin meaning them for scpctl, neutralised once
// at start-up, before any connection is made:
// - NODE_TLS_REJECT_UNAUTHORIZED=0 (left over from debugging something else) would make Node accept any
//   certificate, and so send the token to whoever answers: it is removed, with a warning. scpctl always
//   verifies TLS (the transport also says rejectUnauthorized outright).
// - A proxy variable without a scheme (`HTTPS_PROXY=proxy:3128`) means `http://proxy:3128`, as in curl;
//   URL parsers would read `proxy:` as the scheme.

import { hasScheme } from '../core/urls.js';

const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/** Fixes `env` in place; returns the warnings to show (one line each). */
export function neutralizeEnvTraps(env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  if (env.NODE_TLS_REJECT_UNAUTHORIZED === '0') {
    warnings.push('NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored: scpctl always verifies TLS certificates (use --ca-cert for a private authority)');
  }
  delete env.NODE_TLS_REJECT_UNAUTHORIZED;
  for (const variable of PROXY_VARIABLES) {
    const value = env[variable]?.trim();
    if (value && !hasScheme(value)) env[variable] = `http://${value}`;
  }
  return warnings;
}
