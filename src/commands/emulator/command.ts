// `scpctl emulator`: its declaration; the server loads only when it runs. It needs no context: it is a
// server, not a client.
import type { CommandSpec } from '../command-spec.js';

export const emulatorCommand: CommandSpec = {
  name: 'emulator',
  summary: 'a local server that speaks the API, for trying things and for tests',
  group: 'Testing:',
  options: [
    { flags: '--host <host>', description: 'loopback address to listen on', default: '127.0.0.1' },
    { flags: '--port <port>', description: 'port (0 picks a free one)', default: '8787' },
    { flags: '--token <token>', description: 'the token the emulator accepts (its own, not yours; default emulator-token); shows in a process list' },
    { flags: '--token-file <file>', description: 'read the token the emulator accepts from FILE (env SCPCTL_EMULATOR_TOKEN works too)' },
    { flags: '--admin-key-file <file>', description: 'write the admin key to FILE (mode 0600) instead of the second stdout line' },
    { flags: '--state <file>', description: 'keep profiles in FILE across restarts (written atomically)' },
    { flags: '--profile <name>', description: 'a profile to serve, NAME or NAME=a,b,c (repeatable)', repeatable: true },
    { flags: '--events <n>', description: 'synthetic events for reports', default: '2000' },
    { flags: '--seed <seed>', description: 'seed of the synthetic events', default: '1' },
    { flags: '--pending-ms <ms>', description: 'how long each change stays pending', default: '0' },
    { flags: '--rate <n/s>', description: 'answer 429 past N requests in S seconds, e.g. 24/5' },
    { flags: '--http200-errors', description: 'answer API errors as the real service does: HTTP 200 with status error (403 for a rejected token)' },
    { flags: '--page-cap <n>', description: 'cap report pages at N records whatever limit says (the service often caps at 5000)' },
    { flags: '--tls-cert <file>', description: 'serve HTTPS with this certificate (PEM)' },
    { flags: '--tls-key <file>', description: 'the key of --tls-cert (PEM)' },
  ],
  examples: ['scpctl emulator --port 0', 'scpctl emulator --profile finance=a-bucket,b-bucket --pending-ms 2000', 'scpctl emulator --http200-errors --page-cap 5000 --rate 24/5'],
  direct: async ({ args, io, command, signals }) => {
    const { runEmulator } = await import('./index.js');
    // --token-file is also the program's global flag (the client's token), which commander reads first
    // wherever it stands: for this command it names the emulator's own token.
    const options = { ...(args[0] as Parameters<typeof runEmulator>[0]) };
    options.tokenFile ??= (command.optsWithGlobals() as { tokenFile?: string }).tokenFile;
    await runEmulator(options, io, signals);
  },
};
