// `scpctl login` and `scpctl logout`: their declarations; the code is in index.ts beside it.
import type { CommandSpec } from '../command-spec.js';

export const loginCommand: CommandSpec = {
  name: 'login',
  summary: 'store the base URL and token in the config store',
  group: 'Setup:',
  options: [
    { flags: '--with-token', description: 'read the token from standard input instead of a prompt' },
    { flags: '--no-verify', description: 'store without checking the token' },
  ],
  examples: ['scpctl login --base-url https://tenant.example.com', 'echo "$TOKEN" | scpctl login --base-url https://tenant.example.com --with-token'],
  load: async () => (await import('./index.js')).login,
};

export const logoutCommand: CommandSpec = {
  name: 'logout',
  summary: 'forget the stored token of the context',
  group: 'Setup:',
  examples: ['scpctl logout', 'scpctl --context tenant-b logout'],
  load: async () => (await import('./index.js')).logout,
};
