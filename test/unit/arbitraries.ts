// Text of any code point for property tests, lone surrogates and multi-code-point graphemes included.
//
// fast-check's own `unit: 'binary'` and `unit: 'grapheme'` draw the same kind of text, but each such arbitrary
// builds a reverse map of every code point it can draw (1.1 million entries, about half a second) the first
// time a value is checked or shrunk; the suite made a dozen of them, 9 s of its CPU. These map a drawn integer
// to a code point instead: nothing to build, and shrinking still works from the drawn integers.
import fc from 'fast-check';

const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c));

/** Graphemes of more than one code point: combining marks, skin tones, flags, ZWJ sequences, Hangul jamo. */
const clusters = fc.constantFrom('e\u0301', '👍🏽', '🇫🇷', '👩‍💻', '\u1100\u1161', 'ก\u0e31', '\u0915\u094d\u0937', '\u200d', '\ufe0f');

const unit = fc.oneof({ weight: 4, arbitrary: codePoint }, { weight: 1, arbitrary: clusters });

/** Any text, as `fc.string({ unit: 'binary' })` or `'grapheme'` would draw (lengths count units drawn). */
export function anyText(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.array(unit, constraints).map((units) => units.join(''));
}
