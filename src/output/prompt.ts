// A hidden prompt for secrets on a terminal: what is typed is not echoed. Only public API: readline gets an
// output stream that drops everything (its echo), and the question is written to the terminal directly.
// (npm's `read` does the same with mute-stream, but leaves its promise unsettled when the user ends the
// prompt with Ctrl-D; this is as short and settles on every way out.)
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { Interrupted, UsageError } from '../errors.js';

export function promptHidden(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  return new Promise((resolve, reject) => {
    // terminal: true puts the input in raw mode (no echo), so Ctrl-C reaches us as a key ('SIGINT' below), not
    // a signal. The question is shown only after that: what is typed once it shows is never echoed.
    const rl = createInterface({ input, output: muted, terminal: true });
    output.write(question);
    let settled = false;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      rl.close();
      output.write('\n');
      settle();
    };
    rl.on('line', (answer) => finish(() => resolve(answer)));
    // Ctrl-C: exit 130 like an interrupt anywhere else, nothing stored.
    rl.on('SIGINT', () => finish(() => reject(new Interrupted('interrupted at the prompt; nothing was stored'))));
    // Ctrl-D on an empty line (or the terminal gone): no answer is coming.
    rl.on('close', () => finish(() => reject(new UsageError('no token was entered; nothing was stored'))));
  });
}
