// How help is laid out (contract section 12): wrapped at the terminal's width, 80 columns off one. Commander
// wraps a description only while its column keeps 40 columns, and never wraps text added after the help:
// `buckets --help`, whose subcommand terms are long (`append [options] <profile> [bucket...]`), printed its
// global options block at 140 columns into a pipe, and a long example ran to 91.
import { Help, type AddHelpTextContext, type HelpConfiguration } from 'commander';

/** Narrower than this, a description goes on the lines under its term instead of in a column beside it. */
const NARROWEST_DESCRIPTION = 24;
/** Where a description under its term starts, and where an example's continued lines start. */
const UNDER_INDENT = 8;
const CONTINUED_INDENT = 6;

/** The program's help settings; commander copies them to every command made from it. */
export const HELP_LAYOUT: HelpConfiguration = {
  showGlobalOptions: true,
  sortSubcommands: false,
  minWidthToWrap: NARROWEST_DESCRIPTION,
  formatItem(term, termWidth, description, helper) {
    const width = helper.helpWidth ?? 80;
    // commander's item: 2 spaces, the term padded to termWidth, 2 spaces, the description.
    if (!description || width - termWidth - 4 >= NARROWEST_DESCRIPTION) return Help.prototype.formatItem.call(helper, term, termWidth, description, helper);
    const under = ' '.repeat(UNDER_INDENT);
    return `  ${term}\n${under}${helper.boxWrap(description, width - UNDER_INDENT).replace(/\n/g, `\n${under}`)}`;
  },
};

/** A command's examples, each wrapped at the width its help is written at, as a shell reads it (`\` at a line's end). */
export function examples(lines: readonly string[]): (context: AddHelpTextContext) => string {
  return ({ command, error }) => {
    const output = command.configureOutput();
    const width = (error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) || 80;
    return `\nExamples:\n${lines.map((line) => wrapExample(line, width)).join('\n')}\n`;
  };
}

/**
 * `  $ scpctl ...` within `width` columns, broken only at spaces outside quotes, so that a line pasted whole
 * into a shell still runs the example. A word longer than a line stays whole.
 */
export function wrapExample(example: string, width: number): string {
  const words = example.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g) ?? [];
  const lines: string[] = [];
  let line = '  $';
  words.forEach((word, index) => {
    // Room for the word and, unless it is the last, the ` \` that would continue its line.
    const room = index === words.length - 1 ? 0 : 2;
    if (line !== '  $' && line.length + 1 + word.length + room > width) {
      lines.push(`${line} \\`);
      line = ' '.repeat(CONTINUED_INDENT - 1);
    }
    line += ` ${word}`;
  });
  return [...lines, line].join('\n');
}
