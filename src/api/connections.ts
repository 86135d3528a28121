// The connections a run keeps open between its requests (undici's proxy agents, with their pools), closed
// when the run ends. They belong to the run, not the module: a run in a test's process, or one of several
// runs at once, must leave no socket open behind it and never share another run's proxy settings.

/** What a kept connection must offer: a way to close it and everything it holds. */
export interface Closable {
  destroy(): Promise<void>;
}

export class RunConnections {
  private readonly kept = new Map<string, Closable>();

  get<T extends Closable>(key: string): T | undefined {
    return this.kept.get(key) as T | undefined;
  }

  keep(key: string, connection: Closable): void {
    this.kept.set(key, connection);
  }

  /** Closes one kept connection now (an agent that missed its deadline may keep retrying on its own). */
  discard(key: string): void {
    const connection = this.kept.get(key);
    this.kept.delete(key);
    void connection?.destroy().catch(() => undefined);
  }

  /** Closes every kept connection; a failure to close one is no failure of the run. */
  async close(): Promise<void> {
    const all = [...this.kept.values()];
    this.kept.clear();
    await Promise.all(all.map((connection) => connection.destroy().catch(() => undefined)));
  }
}
