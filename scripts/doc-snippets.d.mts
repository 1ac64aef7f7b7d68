// Types of scripts/doc-snippets.mjs, for the test that uses it (test/docs/).

/** One fenced code block of a Markdown text. */
export interface FencedBlock {
  /** The fence's line, 1-based. */
  line: number;
  /** The info string's first word, lowercased ("" for none). */
  lang: string;
  /** Whether the info string has the word `run`. */
  run: boolean;
  /** The block's text, ending with a newline. */
  code: string;
}

/** A checked code block of the docs, with where it is and the file it is written to. */
export interface DocSnippet {
  /** `README.md:55`. */
  where: string;
  /** The file name it is written to (`README-55.ts`). */
  file: string;
  /** Whether CI runs it. */
  run: boolean;
  /** The block's text. */
  code: string;
}

export function docFiles(root?: string): string[];
export function fencedBlocks(markdown: string): FencedBlock[];
export function docSnippets(root?: string): DocSnippet[];
export function writeSnippets(outDir: string, root?: string): Omit<DocSnippet, "code">[];
