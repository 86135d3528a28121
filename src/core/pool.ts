// Runs `work` over items with at most `limit` at once, keeping the results in the items' order.
export async function mapPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Tasks that each hold about `bytes` of memory while they run, at most `limit` bytes of them at once (one
 * larger than the limit runs alone): many small profiles go together, large ones one after another.
 */
export class MemoryBudget {
  private used = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async use<T>(bytes: number, task: () => Promise<T>): Promise<T> {
    while (this.used > 0 && this.used + bytes > this.limit) await new Promise<void>((wake) => this.waiting.push(wake));
    this.used += bytes;
    try {
      return await task();
    } finally {
      this.used -= bytes;
      for (const wake of this.waiting.splice(0)) wake();
    }
  }
}
