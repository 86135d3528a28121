// `scpctl login` and `scpctl logout`: their declarations; the code is in index.ts beside it.
import type { CommandSpec } from '../command-spec.js';
import { TOKEN_STORES } from '../../settings/token-stores.js';

export const loginCommand: CommandSpec = {
  name: 'login',
  summary: 'store the base URL and token (the OS credential store, else the config file)',
  group: 'Setup:',
  options: [
    { flags: '--with-token', description: 'read the token from standard input instead of a prompt' },
    { flags: '--no-verify', description: 'store without checking the token' },
    {
      flags: '--token-store <store>',
      description: 'keyring: the OS credential store (exit 2 if none answers); file: the 0600 config file (default: SCPCTL_TOKEN_STORE, else keyring when one answers)',
      choices: TOKEN_STORES,
    },
  ],
  examples: [
    'scpctl login --base-url https://tenant.example.com',
    'echo "$TOKEN" | scpctl login --base-url https://tenant.example.com --with-token',
    'scpctl login --base-url https://tenant.example.com --token-store file',
  ],
  usesToken: false,
  load: async () => (await import('./index.js')).login,
};

export const logoutCommand: CommandSpec = {
  name: 'logout',
  summary: 'forget the stored token of the context',
  group: 'Setup:',
  examples: ['scpctl logout', 'scpctl --context tenant-b logout'],
  usesToken: false,
  load: async () => (await import('./index.js')).logout,
};
