// How a plan looks on this run's stdout (sync, restore, apply): coloured and cut to TERMINAL_PLAN_LINES
// names of each kind on a terminal, whole and plain when piped.
import type { TextStyle } from '../core/plan.js';
import type { CommandContext } from './context.js';

/** On a terminal, a plan shows at most this many names of each kind a profile. */
const TERMINAL_PLAN_LINES = 50;

export function planStyle(ctx: CommandContext): TextStyle {
  const paint = ctx.term.paint;
  return {
    cut: ctx.term.stdoutIsTTY ? TERMINAL_PLAN_LINES : undefined,
    add: paint.green,
    del: paint.red,
    heading: paint.bold,
    dim: paint.dim,
  };
}
