// Where a context's stored token lives (contract section 16): the OS credential store (the config file then
// holds only `tokenStore: "keyring"`) or the config file (0600). One module writes, removes and moves it, so
// that login, config set token, logout and config migrate-token keep the rule: after any of them succeeds
// the token is in exactly one place, and while one runs it is never in neither.
import { AuthError, UsageError } from '../../errors.js';
import { readConfig, configPath, updateConfig, type ContextValues } from '../../settings/config-file.js';
import { keyringAccount, openCredentialStore, StoreUnavailable, unreachedStoreHint, type CredentialStore } from '../../settings/credential-store.js';
import { TOKEN_STORES, type TokenStoreName } from '../../settings/token-stores.js';

/** `auto`: the OS credential store when one answers, else the file with one line saying so. */
export type StoreChoice = TokenStoreName | 'auto';

/** `--token-store`, else SCPCTL_TOKEN_STORE, else auto. */
export function storeChoice(flag: string | undefined, env: NodeJS.ProcessEnv): StoreChoice {
  const value = flag ?? (env.SCPCTL_TOKEN_STORE || undefined);
  if (value === undefined) return 'auto';
  if ((TOKEN_STORES as readonly string[]).includes(value)) return value as TokenStoreName;
  throw new UsageError(`${flag === undefined ? 'SCPCTL_TOKEN_STORE' : '--token-store'}: "${value}" is not keyring or file`);
}

export function tokenPlace(values: ContextValues | undefined): TokenStoreName | undefined {
  if (values?.tokenStore === 'keyring') return 'keyring';
  return values?.token ? 'file' : undefined;
}

function placeNow(env: NodeJS.ProcessEnv, context: string): TokenStoreName | undefined {
  return tokenPlace(readConfig(configPath(env)).contexts[context]);
}

/** The store, probed; a store that does not answer is exit 2 naming what was asked (`doing`). */
async function answeringStore(env: NodeJS.ProcessEnv, doing: string): Promise<CredentialStore> {
  try {
    const store = await openCredentialStore(env);
    store.probe();
    return store;
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    // `--token-store` is login's flag: the commands that come here take none, so the hint offers no other way.
    throw new UsageError(`${doing}: ${error.message}; nothing was changed`, { hint: unreachedStoreHint(env) });
  }
}

/**
 * The config file says where the context's token is: itself (`token`), or the OS store when `token` is
 * undefined (and then holds none). `extra`: login's base URL.
 */
function record(env: NodeJS.ProcessEnv, context: string, token: string | undefined, extra: ContextValues = {}): Promise<unknown> {
  return updateConfig((data) => {
    const values: ContextValues = { ...data.contexts[context], ...extra };
    if (token === undefined) {
      values.tokenStore = 'keyring';
      delete values.token;
    } else {
      values.token = token;
      delete values.tokenStore;
    }
    data.contexts[context] = values;
  }, env);
}

/** `step` after an entry was written to the OS store: when it fails, the entry (`account`) goes again (never two places). */
async function orRemove(store: CredentialStore, account: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    store.remove(account);
    throw error;
  }
}

export interface Saved {
  where: TokenStoreName;
  /** Why the file was used although the OS store was not refused: the one line login prints. */
  fallback?: string;
}

/**
 * Stores `token` for `context` (and `extra` values: login's base URL) where `choice` says. Into the OS
 * store: written and read back first, then the config file says keyring and loses any token it held.
 * Into the file: the config file first, then the OS store's old entry, if any, is removed.
 */
export async function saveToken(env: NodeJS.ProcessEnv, context: string, token: string, choice: StoreChoice, extra: ContextValues = {}): Promise<Saved> {
  const account = keyringAccount(context, env);
  let fallback: string | undefined;
  if (choice !== 'file') {
    try {
      const store = await openCredentialStore(env);
      store.probe();
      store.write(account, token);
      await orRemove(store, account, () => record(env, context, undefined, extra));
      return { where: 'keyring' };
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      if (choice === 'keyring') throw new UsageError(`--token-store keyring: ${error.message}; nothing was stored`, { hint: 'Keep the token in the file instead: --token-store file' });
      fallback = error.message;
    }
  }
  const wasInKeyring = placeNow(env, context) === 'keyring';
  await record(env, context, token, extra);
  if (wasInKeyring) {
    // The file holds the token now; the old one in the OS store goes, or the caller says it stayed.
    try {
      (await openCredentialStore(env)).remove(account);
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      return { where: 'file', fallback: `the old token of context ${context} is still in the OS credential store (${error.message})` };
    }
  }
  return { where: 'file', ...(fallback === undefined ? {} : { fallback }) };
}

/** Removes the context's stored token from where it is; which place held one, if any. */
export async function removeToken(env: NodeJS.ProcessEnv, context: string): Promise<TokenStoreName | undefined> {
  const place = placeNow(env, context);
  if (place === 'keyring') {
    const store = await answeringStore(env, `logout: cannot remove the token of context ${context} from the OS credential store`);
    store.remove(keyringAccount(context, env));
  }
  await updateConfig((data) => {
    const values = data.contexts[context];
    if (!values) return;
    delete values.token;
    delete values.tokenStore;
  }, env);
  return place;
}

/**
 * Moves the context's token to `to` (the other place when not given): copied, then removed from where it was.
 * `doing` names the command in a failure: `config set tokenStore` moves the token too.
 */
export async function moveToken(env: NodeJS.ProcessEnv, context: string, to: TokenStoreName | undefined, doing = 'migrate-token'): Promise<{ from: TokenStoreName; to: TokenStoreName }> {
  const values = readConfig(configPath(env)).contexts[context];
  const from = tokenPlace(values);
  if (from === undefined) throw new AuthError(`no token is stored in context ${context}`, { hint: 'Store one first: scpctl login' });
  const target = to ?? (from === 'keyring' ? 'file' : 'keyring');
  if (target === from) return { from, to: target };
  const account = keyringAccount(context, env);
  const store = await answeringStore(env, `${doing}: the OS credential store is needed`);
  if (target === 'keyring') {
    store.write(account, values!.token!);
    await orRemove(store, account, () => record(env, context, undefined));
    return { from, to: target };
  }
  const token = store.read(account)?.trim();
  if (!token) throw new AuthError(`no token in the OS credential store (context ${context})`, { hint: 'Store one: scpctl login' });
  await record(env, context, token);
  try {
    store.remove(account);
  } catch (error) {
    // Never both after success: the file gives it back, and the OS store keeps the one copy.
    await record(env, context, undefined);
    throw new UsageError(`migrate-token: the OS credential store kept the token (${(error as Error).message}); it stays there`);
  }
  return { from, to: target };
}

/** delete-context: the context's entry in the OS store goes with it; a store that does not answer leaves it, said in the returned line. */
export async function forgetStoredToken(env: NodeJS.ProcessEnv, context: string): Promise<string | undefined> {
  if (placeNow(env, context) !== 'keyring') return undefined;
  try {
    (await openCredentialStore(env)).remove(keyringAccount(context, env));
    return undefined;
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    return `the token of context ${context} stays in the OS credential store (${error.message}): service scpctl, account ${keyringAccount(context, env)}`;
  }
}

/**
 * rename-context: the entry is written under the new name before the config file is renamed (`rename`),
 * and the old one removed after, so the token is never in neither. Exit 2 when the store does not answer.
 */
export async function renameStoredToken(env: NodeJS.ProcessEnv, from: string, to: string, rename: () => Promise<void>): Promise<void> {
  if (placeNow(env, from) !== 'keyring') return rename();
  const store = await answeringStore(env, `rename-context: the token of context ${from} is in the OS credential store`);
  const token = store.read(keyringAccount(from, env));
  if (token !== undefined) store.write(keyringAccount(to, env), token);
  await orRemove(store, keyringAccount(to, env), rename);
  store.remove(keyringAccount(from, env));
}
