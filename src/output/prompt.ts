// A hidden prompt for secrets on a terminal: what is typed is not echoed.
import { createInterface } from 'node:readline';

export function promptHidden(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input, output, terminal: true });
    const mutable = rl as unknown as { _writeToOutput: (s: string) => void };
    let asked = false;
    mutable._writeToOutput = (text: string) => {
      // Only the question itself is shown; every echo of a typed character is swallowed.
      if (!asked) output.write(text);
    };
    rl.question(question, (answer) => {
      output.write('\n');
      rl.close();
      resolve(answer);
    });
    asked = true;
    rl.on('SIGINT', () => {
      rl.close();
      output.write('\n');
      reject(Object.assign(new Error('interrupted'), { code: 'SIGINT' }));
    });
  });
}
