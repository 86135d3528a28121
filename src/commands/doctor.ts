import { UsageError } from '../errors.js';
import type { CommandContext } from './context.js';

export async function doctor(_ctx: CommandContext, _options: unknown): Promise<void> {
  throw new UsageError('doctor is not implemented yet');
}
