// Where the token in use came from (contract section 2). Every message about a rejected or missing token
// names it, and a rejected token's hint fits it: a stale SCPCTL_TOKEN exported in a shell is fixed by
// unsetting or updating it, which "run scpctl login" never does (login stores a token the variable overrides).
// Section 16's sources: the OS credential store (`keyring`) and a context's `tokenCommand` (`command`,
// named by its argv words, sanitised: the words are the user's config, but a message must stay one line).

import { capMessage, visible } from '../core/service-text.js';

export type TokenSource =
  | { readonly kind: 'flag-file'; readonly path: string }
  | { readonly kind: 'env' }
  | { readonly kind: 'env-file'; readonly path: string }
  | { readonly kind: 'store'; readonly context: string }
  | { readonly kind: 'keyring'; readonly context: string }
  | { readonly kind: 'command'; readonly context: string; readonly argv: readonly string[] };

/** The sources a flag or variable names, which come before every context's own. */
export type GivenTokenSource = Extract<TokenSource, { kind: 'flag-file' | 'env' | 'env-file' }>;

/**
 * The token source a flag or variable gives, in the settings' precedence: --token-file, SCPCTL_TOKEN (set
 * but empty counts: an error naming it, never a fall-through to the store), SCPCTL_TOKEN_FILE.
 */
export function givenTokenSource(flags: { tokenFile?: string }, env: NodeJS.ProcessEnv): GivenTokenSource | undefined {
  if (flags.tokenFile !== undefined) return { kind: 'flag-file', path: flags.tokenFile };
  if (env.SCPCTL_TOKEN !== undefined) return { kind: 'env' };
  return env.SCPCTL_TOKEN_FILE ? { kind: 'env-file', path: env.SCPCTL_TOKEN_FILE } : undefined;
}

/** A tokenCommand as messages and `config list` show it: its argv words as JSON, control characters escaped. */
export function describeTokenCommand(argv: readonly string[]): string {
  return capMessage(visible(JSON.stringify(argv)), 200);
}

/** `--token-file FILE`, `SCPCTL_TOKEN`, `SCPCTL_TOKEN_FILE=FILE`, `the config store of context NAME`. */
export function describeTokenSource(source: TokenSource): string {
  switch (source.kind) {
    case 'flag-file':
      return `--token-file ${source.path}`;
    case 'env':
      return 'SCPCTL_TOKEN';
    case 'env-file':
      return `SCPCTL_TOKEN_FILE=${source.path}`;
    case 'store':
      return `the config store of context ${source.context}`;
    case 'keyring':
      return `the OS credential store (context ${source.context})`;
    case 'command':
      return `the tokenCommand ${describeTokenCommand(source.argv)} of context ${source.context}`;
  }
}

/**
 * What to do when the service rejects the token from `source`. `scpctl` is how to call scpctl for this
 * context (`scpctl --context NAME` for another than the default).
 */
export function rejectedTokenHint(source: TokenSource, scpctl: string): string {
  const stored = `to use the token \`${scpctl} login\` stores`;
  switch (source.kind) {
    case 'flag-file':
      return `Put the current token in ${source.path}, or pass another --token-file.`;
    case 'env':
      return `SCPCTL_TOKEN is set in this environment and comes before the config store: update it, or \`unset SCPCTL_TOKEN\` ${stored}.`;
    case 'env-file':
      return `SCPCTL_TOKEN_FILE is set in this environment: put the current token in ${source.path}, or \`unset SCPCTL_TOKEN_FILE\` ${stored}.`;
    case 'store':
    case 'keyring':
      return `Store a current token: ${scpctl} login`;
    case 'command':
      return `Make the tokenCommand print the current token on its first line, or change it: ${scpctl} config set tokenCommand '["ARGV","WORDS"]'`;
  }
}

/**
 * The token variables set in `env`, which every command reads before the config store: `login` stores a
 * token they override, and `logout` forgets one they go on supplying. (SCPCTL_TOKEN set but empty counts:
 * it makes every command fail.)
 */
export function overridingTokenVariables(env: NodeJS.ProcessEnv): string[] {
  return [
    ...(env.SCPCTL_TOKEN !== undefined ? ['SCPCTL_TOKEN'] : []),
    ...(env.SCPCTL_TOKEN_FILE ? ['SCPCTL_TOKEN_FILE'] : []),
  ];
}

/** The warnings of a command that has just stored a token (`login`, `config set token`), one a variable that overrides it. */
export function storedTokenWarnings(env: NodeJS.ProcessEnv): string[] {
  return overridingTokenVariables(env).map(
    (variable) => `${variable} is set in this environment and overrides the token just stored: commands will keep using it (\`unset ${variable}\` to use this one)`,
  );
}
