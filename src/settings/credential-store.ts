// The OS credential store (contract section 16) through @napi-rs/keyring: macOS Keychain, Windows
// Credential Manager, and on Linux the Secret Service (D-Bus), falling back to the kernel keyring (keyutils)
// as the addon's own default does. One entry per context and config folder: service `scpctl`, account
// `CONTEXT@CONFIG_FOLDER`, so that two config folders (a test's, CI's) never share or overwrite a token.
// The native addon is loaded here only, at the first use (a context whose tokenStore is keyring, or login,
// logout, migrate-token, doctor): a `buckets view` of a file-stored token never pays for it.
import { resolve } from 'node:path';
import { configDir } from './config-file.js';

export const KEYRING_SERVICE = 'scpctl';

export function keyringAccount(context: string, env: NodeJS.ProcessEnv): string {
  return `${context}@${resolve(configDir(env))}`;
}

/** No credential store answers here; the message says why in a few words (for one line). */
export class StoreUnavailable extends Error {}

/**
 * The hint for a store that did not answer: with SCPCTL_TOKEN_STORE=file it is the variable that keeps the
 * store away, and waiting for a desktop session would not help. `instead`: what else will do, if anything.
 */
export function unreachedStoreHint(env: NodeJS.ProcessEnv, instead?: string): string {
  const reach = env.SCPCTL_TOKEN_STORE === 'file'
    ? 'Unset SCPCTL_TOKEN_STORE (file keeps scpctl away from the OS credential store), then run it again'
    : 'Run it where a store answers (a desktop session; on Linux the Secret Service or a session keyring)';
  return instead === undefined ? reach : `${reach}; or ${instead}`;
}

interface Addon {
  Entry: new (service: string, account: string) => {
    getPassword(): string | null;
    setPassword(password: string): void;
    deletePassword(): boolean;
  };
}

let loaded: Promise<Addon> | undefined;

/**
 * The addon, loaded once. The single executable has no node_modules to load it from (its `_Sci__` finds no
 * asset of that name): the store is then not available to it, in one line, and login uses the file.
 */
async function addon(): Promise<Addon> {
  loaded ??= import('@napi-rs/keyring').then(
    (module) => ((module as { default?: Addon }).default ?? (module as unknown as Addon)),
    (error: NodeJS.ErrnoException) => {
      loaded = undefined;
      if (error.code === 'SCPCTL_NOT_IN_EXECUTABLE') throw new StoreUnavailable('the OS credential store is not available to the single executable');
      throw new StoreUnavailable(`the credential store addon could not be loaded (${error.code ?? error.message})`);
    },
  );
  return loaded;
}

/** What the addon says when a store does not answer, in a few words (its messages carry no secret). */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^Couldn't access platform storage: /, '').replace(/\s+/g, ' ').slice(0, 120);
}

function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof StoreUnavailable) throw error;
    throw new StoreUnavailable(`no OS credential store answered (${reasonOf(error)})`);
  }
}

export type CredentialStore = Awaited<ReturnType<typeof openCredentialStore>>;

/**
 * The store, or StoreUnavailable (as every call of it may throw). `SCPCTL_TOKEN_STORE=file` (CI, and the
 * in-process tests) means scpctl never touches the OS store at all.
 */
export async function openCredentialStore(env: NodeJS.ProcessEnv) {
  if (env.SCPCTL_TOKEN_STORE === 'file') throw new StoreUnavailable('SCPCTL_TOKEN_STORE=file keeps tokens out of the OS credential store');
  const { Entry } = await addon();
  const entry = (account: string) => guarded(() => new Entry(KEYRING_SERVICE, account));
  return {
    /** The stored token, or undefined when the entry does not exist. */
    read: (account: string): string | undefined => guarded(() => entry(account).getPassword() ?? undefined),
    /** Stores the token and reads it back: a store that drops it does not count as answering. */
    write(account: string, token: string): void {
      guarded(() => entry(account).setPassword(token));
      if (guarded(() => entry(account).getPassword()) !== token) throw new StoreUnavailable('the OS credential store did not keep the token');
    },
    /** Removes the entry; false when there was none. */
    remove: (account: string): boolean => guarded(() => entry(account).deletePassword()),
    /**
     * Whether a store answers, told by a round trip of a probe entry that holds no secret: a store that refuses
     * writes (a kernel keyring this process may not link into) must be found out before the token is written
     * there, since the addon can leave a key behind that it then cannot read or remove.
     */
    probe(): void {
      // One entry for every probe: a store that keeps it after a failed write (below) keeps only this one.
      // Another scpctl probing at the same moment may have removed it already: only a failure counts.
      const probe = entry(PROBE_ACCOUNT);
      guarded(() => probe.setPassword('scpctl-probe'));
      guarded(() => probe.getPassword());
      guarded(() => probe.deletePassword());
    },
  };
}

const PROBE_ACCOUNT = 'probe';
