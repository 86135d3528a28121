// `scpctl doctor`: its declaration; the checks load only when it runs.
import type { CommandSpec } from '../command-spec.js';

export const doctorCommand: CommandSpec = {
  name: 'doctor',
  summary: 'check config, network, TLS, proxy, token and clock',
  group: 'Setup:',
  examples: ['scpctl doctor', 'scpctl doctor --json'],
  output: { kind: 'checks', terminal: 'text', piped: 'text' },
  load: async () => (await import('./index.js')).doctor,
};
