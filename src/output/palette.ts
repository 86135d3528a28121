// Colours for one stream of one run, from kleur's `kleur/colors` (which closes nested styles correctly:
// `bold` inside `bold` opens it again). Its switch is for the whole process, so it stays on, and the decision
// belongs to each stream: Terminal makes a palette for stdout and one for stderr, the coloured one from kleur
// or the identity palette, and what is drawn is handed the palette it may use. No module writes SGR by hand.
import { $, blue, bold, cyan, dim, gray, green, red, yellow } from 'kleur/colors';

$.enabled = true;

type Colour = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'blue' | 'cyan' | 'grey';
export type Palette = { readonly enabled: boolean } & Readonly<Record<Colour, (text: string) => string>>;

const COLOURED: Palette = { enabled: true, bold, dim, red, green, yellow, blue, cyan, grey: gray };

const same = (text: string): string => text;

/** No colours: every function gives its text back as it is. */
export const NO_COLOUR: Palette = { enabled: false, bold: same, dim: same, red: same, green: same, yellow: same, blue: same, cyan: same, grey: same };

export function palette(enabled: boolean): Palette {
  return enabled ? COLOURED : NO_COLOUR;
}
