// Doctor's line on where the token in use lives, and whether that place answers (contract section 16): the
// OS credential store is probed (a round trip of an entry that holds no secret), a file or a tokenCommand was
// read when the settings were, and a variable is only named.
import { configPath, readConfig, scpctlFor } from '../../settings/config-file.js';
import { describeTokenSource } from '../../settings/token-source.js';
import type { Checks } from './results.js';
import type { DoctorState } from './state.js';

const NAME = 'token store';

export async function checkTokenStore(state: DoctorState, checks: Checks): Promise<void> {
  const { ctx } = state;
  const resolved = state.settings!.resolved;
  const origin = resolved.token?.origin;
  const context = resolved.context.value;
  const inKeyring = origin?.kind === 'keyring' || (origin === undefined && readConfig(configPath(ctx.env)).contexts[context]?.tokenStore === 'keyring');
  if (inKeyring) {
    const { keyringAccount, openCredentialStore, unreachedStoreHint, KEYRING_SERVICE } = await import('../../settings/credential-store.js');
    try {
      (await openCredentialStore(ctx.env)).probe();
      checks.pass(NAME, `the OS credential store answers (service ${KEYRING_SERVICE}, account ${keyringAccount(context, ctx.env)})`);
    } catch (error) {
      checks.fail(NAME, `the token of context ${context} is in the OS credential store, which does not answer here: ${(error as Error).message}`, 3,
        unreachedStoreHint(ctx.env, `store the token in the file: ${scpctlFor(context)} login --token-store file`));
    }
    return;
  }
  if (!origin) return; // no token: the token line said so, and there is no place to name
  if (origin.kind === 'store') checks.pass(NAME, `the config file ${configPath(ctx.env)} (context ${context})`);
  else if (origin.kind === 'command') checks.pass(NAME, `${describeTokenSource(origin)} printed it`);
  else checks.info(NAME, describeTokenSource(origin));
}
