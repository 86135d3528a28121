// Where `report --all` writes: stdout page by page, or, for a table on a terminal, kept for the pager.
import type { Terminal } from './terminal.js';

/** At most this much of a table is kept for the pager (about 20,000 rows); past it, the table streams. */
export const KEEP_FOR_PAGER = 4_000_000;

/**
 * Where report --all writes: stdout, as the pages come; or, for a table on a terminal, kept and shown
 * through the pager at the end as a whole table is. Kept only up to KEEP_FOR_PAGER characters: a report
 * must not grow memory with its records, so past it the kept text is written and the rest streams (the
 * terminal's scrollback then holds it). After a failure or a signal, what is kept is written as it is.
 */
export class ReportOutput {
  private kept: Array<string | Buffer> | undefined;
  private size = 0;

  constructor(
    private readonly term: Terminal,
    keep: boolean,
    /** Called when keeping ends early and the table starts streaming. */
    private readonly onStreaming: () => void,
  ) {
    this.kept = keep ? [] : undefined;
  }

  write(text: string | Buffer): void {
    if (!this.kept) return this.term.out(text);
    this.kept.push(text);
    this.size += text.length;
    if (this.size > KEEP_FOR_PAGER) {
      this.onStreaming();
      this.flush();
    }
  }

  /** Writes what is kept and streams from now on. */
  flush(): void {
    if (!this.kept) return;
    const text = this.kept.join('');
    this.kept = undefined;
    this.term.out(text);
  }

  /** Shows what is kept through the pager (when it is taller than the screen). */
  async finish(): Promise<void> {
    if (!this.kept) return;
    const kept = this.kept;
    this.kept = undefined;
    await this.term.page(kept);
  }
}
