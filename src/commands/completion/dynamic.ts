// `scpctl __complete KIND [PREFIX]`, hidden: what the completion scripts ask for values that are not known
// when the script is generated. `context`: the contexts of the config store; `profile`: the profiles seen
// before in the context in effect. One candidate a line; never an error (a shell is waiting on it).
import { configPath, readConfig } from '../../settings/config-file.js';
import { resolveContext } from '../../settings/resolve.js';
import { isOfferable, seenProfiles } from '../../settings/seen-profiles.js';
import { contextNames } from '../config/contexts.js';
import { holdsSecret } from '../../core/secret-names.js';

export const DYNAMIC_KINDS = ['context', 'profile'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

export function dynamicCandidates(kind: string, prefix: string, options: { context?: string }, env: NodeJS.ProcessEnv): string[] {
  try {
    const data = readConfig(configPath(env));
    let names: string[] = [];
    if (kind === 'context') names = contextNames(data);
    if (kind === 'profile') names = seenProfiles(resolveContext(options, env, data).value, env);
    // A name kept by an older scpctl may hold a token: never offered (a shell would show it). The tokens of the
    // environment and the store only: a token file is not read here (a FIFO would hold up the waiting shell).
    const tokens = [env.SCPCTL_TOKEN, ...Object.values(data.contexts).map((values) => values.token)].filter((token): token is string => Boolean(token));
    return names.filter((name) => isOfferable(name) && name.startsWith(prefix) && !holdsSecret(name, tokens));
  } catch {
    return [];
  }
}
