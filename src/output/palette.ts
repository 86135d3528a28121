// Colours for one stream of one run. A colour switch for the whole process (kleur's, which scpctl used
// before) made two runs in one process (the e2e tests run whole commands in theirs) share one decision, and
// stderr had to strip what stdout's decision had painted. A palette belongs to the stream it paints for
// (Terminal makes one for stdout and one for stderr), and what is drawn is handed the palette it may use.

export interface Palette {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  cyan(text: string): string;
  grey(text: string): string;
}

function sgr(open: number, close: number): (text: string) => string {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

const COLOURED: Palette = {
  enabled: true,
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  blue: sgr(34, 39),
  cyan: sgr(36, 39),
  grey: sgr(90, 39),
};

const same = (text: string): string => text;

/** No colours: every function gives its text back as it is. */
export const NO_COLOUR: Palette = { enabled: false, bold: same, dim: same, red: same, green: same, yellow: same, blue: same, cyan: same, grey: same };

export function palette(enabled: boolean): Palette {
  return enabled ? COLOURED : NO_COLOUR;
}
