// `scpctl config ...`: the declarations of the config store and context commands; the code is in index.ts
// and contexts.ts beside it.
import type { ArgumentSpec, CommandSpec } from '../command-spec.js';
import type { OutputSpec } from '../../output/formats.js';
import { TOKEN_STORES } from '../../settings/token-stores.js';

const KEY: ArgumentSpec = { name: '<key>', description: 'baseUrl, token, timeout, retries, caCert, historyKeep, tokenStore, tokenCommand' };
const CONTEXT: ArgumentSpec = { name: '<context>', description: 'context name' };
const store = (name: 'configGet' | 'configSet' | 'configUnset' | 'configList' | 'configPathCommand' | 'migrateToken') => async () => (await import('./index.js'))[name];
const contexts = (name: 'useContext' | 'currentContext' | 'getContexts' | 'deleteContext' | 'renameContext') =>
  async () => (await import('./contexts.js'))[name];

const LISTING: OutputSpec = { kind: 'listing', terminal: 'table', piped: 'text' };
// All but `get` and `list` (which show the token in use) never need the context's token (usesToken: false).

export const configCommand: CommandSpec = {
  name: 'config',
  summary: 'read and write the config store',
  group: 'Setup:',
  examples: ['scpctl config list', 'scpctl config set timeout 60', 'scpctl config use-context tenant-b'],
  subcommands: [
    { name: 'get', summary: 'print a stored value (token masked)', args: [KEY], examples: ['scpctl config get baseUrl', 'scpctl --context tenant-b config get timeout'], load: store('configGet') },
    {
      name: 'set',
      summary: 'store a value (the token only from a prompt or --with-token)',
      args: [KEY, { name: '[value]', description: 'the value' }],
      options: [{ flags: '--with-token', description: 'read the token from standard input' }],
      examples: [
        'scpctl config set base-url https://tenant.example.com',
        'echo "$TOKEN" | scpctl config set token --with-token',
        `scpctl --context prod config set tokenCommand '["pass","show","scp/prod"]'`,
      ],
      usesToken: false, load: store('configSet'),
    },
    { name: 'unset', summary: 'remove a stored value', args: [{ name: '<key>', description: 'the key' }], examples: ['scpctl config unset caCert', 'scpctl --context old config unset token'], usesToken: false, load: store('configUnset') },
    { name: 'list', summary: 'every setting in effect, with its source', examples: ['scpctl config list', 'SCPCTL_TIMEOUT=5 scpctl config list --json'], output: LISTING, load: store('configList') },
    {
      name: 'migrate-token',
      summary: 'move the stored token between the OS credential store and the config file',
      options: [{ flags: '--to <store>', description: 'keyring or file (default: the other one)', choices: TOKEN_STORES }],
      examples: ['scpctl config migrate-token --to keyring', 'scpctl --context ci config migrate-token --to file'],
      usesToken: false, load: store('migrateToken'),
    },
    { name: 'path', summary: 'print the config file path', examples: ['scpctl config path', 'ls -l "$(scpctl config path)"'], usesToken: false, load: store('configPathCommand') },
    {
      name: 'use-context',
      summary: 'choose the default context (one that exists)',
      args: [CONTEXT],
      examples: ['scpctl config use-context tenant-b', 'scpctl config use-context default'],
      usesToken: false, load: contexts('useContext'),
    },
    {
      name: 'current-context',
      summary: 'print the context in effect (--context, SCPCTL_CONTEXT, then the default)',
      examples: ['scpctl config current-context', 'SCPCTL_CONTEXT=tenant-b scpctl config current-context'],
      usesToken: false, load: contexts('currentContext'),
    },
    { name: 'get-contexts', summary: 'list the contexts (* marks the default)', examples: ['scpctl config get-contexts', 'scpctl config get-contexts --json'], output: LISTING, usesToken: false, load: contexts('getContexts') },
    {
      name: 'delete-context',
      summary: 'forget a context and its settings',
      args: [CONTEXT],
      examples: ['scpctl config delete-context old-tenant', 'scpctl config get-contexts && scpctl config delete-context tenant-b'],
      usesToken: false, load: contexts('deleteContext'),
    },
    {
      name: 'rename-context',
      summary: 'rename a context (the default follows it)',
      args: [CONTEXT, { name: '<new-name>', description: 'new name' }],
      examples: ['scpctl config rename-context default tenant-a', 'scpctl config rename-context tenant-b staging'],
      usesToken: false, load: contexts('renameContext'),
    },
  ],
};
