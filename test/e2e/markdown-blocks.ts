// The fenced code blocks of a language in a Markdown text, in order: docs/library.md's examples, which the
// tests run (library-docs.test.ts) and type-check (library-package.test.ts).
export function codeBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm'))].map((m) => m[1]!);
}
