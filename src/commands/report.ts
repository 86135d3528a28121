import { UsageError } from '../errors.js';
import type { CommandContext } from './context.js';

export async function report(_ctx: CommandContext, _options: unknown): Promise<void> {
  throw new UsageError('report is not implemented yet');
}
