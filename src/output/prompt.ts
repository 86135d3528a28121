// Prompts on a terminal: a hidden one for secrets (what is typed is not echoed) and a visible one for a
// question. Only public API: for the hidden prompt readline gets an output stream that drops everything (its
// echo), and the question is written to the terminal directly.
// (npm's `read` does the same with mute-stream, but leaves its promise unsettled when the user ends the
// prompt with Ctrl-D; this is as short and settles on every way out.)
// readline is loaded at the first prompt: six of Node's modules that every bucket command would otherwise
// load through the change pipeline, and only a question asks.
import { Writable } from 'node:stream';
import { Interrupted, UsageError } from '../errors.js';

export function promptHidden(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  return promptLine(question, input, output, { hidden: true, unchanged: 'nothing was stored' }).then((answer) => {
    // Ctrl-D on an empty line (or the terminal gone): no answer is coming.
    if (answer === null) throw new UsageError('no token was entered; nothing was stored');
    return answer;
  });
}

/**
 * A line typed at the terminal, echoed as typed; null when the prompt is ended without one (Ctrl-D, the
 * terminal gone). Ctrl-C is exit 130, `interrupted at the prompt; ` and `unchanged`.
 */
export function promptVisible(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream, unchanged: string): Promise<string | null> {
  return promptLine(question, input, output, { hidden: false, unchanged });
}

async function promptLine(
  question: string,
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  how: { hidden: boolean; unchanged: string },
): Promise<string | null> {
  const { createInterface } = await import('node:readline');
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  return new Promise((resolve, reject) => {
    // terminal: true puts the input in raw mode (no echo but readline's own), so Ctrl-C reaches us as a key
    // ('SIGINT' below), not a signal. The question is shown only after that: what is typed once it shows is
    // never echoed by the terminal itself.
    const rl = createInterface({ input, output: how.hidden ? muted : output, terminal: true });
    if (how.hidden) output.write(question);
    else {
      // readline redraws its line with the prompt it knows: the question is that prompt.
      rl.setPrompt(question);
      rl.prompt();
    }
    let settled = false;
    // A visible line ended with Enter is already followed by readline's own line break.
    const finish = (settle: () => void, newline = true): void => {
      if (settled) return;
      settled = true;
      rl.close();
      if (newline) output.write('\n');
      settle();
    };
    rl.on('line', (answer) => finish(() => resolve(answer), how.hidden));
    // Ctrl-C: exit 130 like an interrupt anywhere else, nothing done.
    rl.on('SIGINT', () => finish(() => reject(new Interrupted(`interrupted at the prompt; ${how.unchanged}`))));
    rl.on('close', () => finish(() => resolve(null)));
  });
}
