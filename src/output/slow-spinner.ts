// Feedback while a request hangs: a spinner that appears only once an operation has taken longer than a
// glance (most answers come sooner, and a flash of spinner is noise), naming the operation and the time so far.
import type { Clock } from '../core/clock.js';
import type { Spinner, Terminal } from './terminal.js';

/** How long an operation may take before the spinner shows. */
export const SLOW_MS = 300;
const REFRESH_MS = 100;

export interface SlowSpinner {
  /** A new label (the elapsed time is added to it); shows the spinner now if it is not yet shown. */
  update(label: string): void;
  stop(): void;
}

/** `viewBucketList finance (2.4 s)`: the label and the time since the operation started. */
export function slowLabel(label: string, elapsedMs: number): string {
  return `${label} (${(Math.max(0, elapsedMs) / 1000).toFixed(1)} s)`;
}

/** Starts timing `label` now; on a terminal (Terminal.spinner decides) a spinner shows after SLOW_MS. */
export function slowSpinner(term: Terminal, label: string, clock: Pick<Clock, 'now'>): SlowSpinner {
  const started = clock.now();
  let text = label;
  let spinner: Spinner | undefined;
  let ticker: NodeJS.Timeout | undefined;
  const render = (): string => slowLabel(text, clock.now() - started);
  const show = (): void => {
    clearTimeout(shown);
    spinner = term.spinner(render());
    ticker = setInterval(() => spinner?.update(render()), REFRESH_MS);
    ticker.unref();
  };
  const shown = setTimeout(show, SLOW_MS);
  shown.unref();
  return {
    // Something to say (a pending change being waited out) is worth showing at once.
    update(next) {
      text = next;
      if (spinner) spinner.update(render());
      else show();
    },
    stop() {
      clearTimeout(shown);
      if (ticker) clearInterval(ticker);
      spinner?.stop();
    },
  };
}

/** Runs `action` with a slow spinner labelled `label`, stopped however it ends. */
export async function whileSlow<T>(term: Terminal, label: string, clock: Pick<Clock, 'now'>, action: () => Promise<T>): Promise<T> {
  const spinner = slowSpinner(term, label, clock);
  try {
    return await action();
  } finally {
    spinner.stop();
  }
}
