// A context's own token when it is not in the config file (contract section 16): from its tokenCommand, or
// from the OS credential store (tokenStore "keyring"). Fetched once, before the settings are resolved
// (resolveSettings is synchronous; a command's output and a store's answer are not), and only when no flag
// or variable stands before the context (token-source.ts's givenTokenSource). The CLI (CommandContext.prepareToken)
// and the library's connect() both fetch through fetchSelectedToken.
import { AuthError, ScpctlError, UsageError } from '../errors.js';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { currentUid, notOwnReason } from '../files/owned.js';
import { configPath, type ConfigData } from './config-file.js';
import { fetchesToken, resolveContext, type ContextToken, type SettingFlags } from './resolve.js';
import { givenTokenSource } from './token-source.js';

interface FetchOptions {
  env: NodeJS.ProcessEnv;
  /** Tokens already known (the tokenCommand's stderr is masked with them). */
  known?: readonly string[];
  signal?: AbortSignal;
}

/**
 * The selected context's token from its tokenCommand (first) or the OS credential store: undefined when a
 * flag or variable comes first, or the context keeps its token (if any) in the config file. Hand the result
 * to resolveSettings.
 */
export async function fetchSelectedToken(flags: SettingFlags, config: ConfigData, options: FetchOptions): Promise<ContextToken | undefined> {
  if (givenTokenSource(flags, options.env)) return undefined;
  const context = resolveContext(flags, options.env, config).value;
  const values = Object.hasOwn(config.contexts, context) ? config.contexts[context] : undefined;
  if (!fetchesToken(values)) return undefined;
  const printed: string[] = [];
  try {
    if (values!.tokenCommand !== undefined) {
      const { parseTokenCommand, runTokenCommand } = await import('./token-command.js');
      const argv = parseTokenCommand(values!.tokenCommand, `tokenCommand (context ${context})`);
      refuseWritableConfig(options.env, 'to run a tokenCommand from');
      const token = await runTokenCommand(argv, { env: options.env, context, known: options.known ?? [], signal: options.signal, printed });
      return { token: { value: token, kind: 'config', source: `tokenCommand (context ${context})`, origin: { kind: 'command', context, argv } }, printed };
    }
    // The store's token goes wherever the config's baseUrl says: a config others can write must not say it.
    refuseWritableConfig(options.env, `to read the token of context ${context} from the OS credential store for`);
    const { keyringAccount, loginLine, openCredentialStore, StoreUnavailable, unreachedStoreHint } = await import('./credential-store.js');
    let stored: string | undefined;
    try {
      stored = (await openCredentialStore(options.env)).read(keyringAccount(context, options.env));
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      throw new AuthError(`cannot read the token of context ${context} from the OS credential store: ${error.message}`, {
        hint: unreachedStoreHint(options.env, `store the token in the file here: ${loginLine(context, ' --token-store file')}`),
      });
    }
    const token = stored?.trim();
    if (!token) {
      throw new AuthError(`no token in the OS credential store (context ${context})`, { hint: `Store one: ${loginLine(context)}` });
    }
    return { token: { value: token, kind: 'config', source: `OS credential store (context ${context})`, origin: { kind: 'keyring', context } }, printed };
  } catch (error) {
    if (error instanceof ScpctlError) return { error, printed };
    throw error;
  }
}

/**
 * A tokenCommand runs with the user's rights, and a token from the OS store is sent to the context's baseUrl:
 * a config file others could have written (group- or world-writable, or owned by someone else, or in such a
 * folder) does neither, as ssh refuses such a config.
 */
function refuseWritableConfig(env: NodeJS.ProcessEnv, what: string): void {
  if (process.platform === 'win32') return; // no POSIX modes: the folder's ACL decides there
  const path = configPath(env);
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return; // a context read from nowhere has no tokenCommand
  }
  const uid = currentUid();
  if (notOwnReason(stats, uid) !== undefined) {
    throw new UsageError(`refusing ${what} ${path}: others can write that file`, { hint: `chmod 600 ${path} (and make it yours)` });
  }
  // Its folder too: whoever can write there can swap in a file of their own between its read and this check.
  const folder = dirname(path);
  if (notOwnReason(statSync(folder), uid, { root: true, sticky: true }) !== undefined) {
    throw new UsageError(`refusing ${what} ${path}: others can write its folder ${folder}`, { hint: `chmod 700 ${folder} (and make it yours)` });
  }
}
