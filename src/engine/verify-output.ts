// Every rewritten text is parsed before it is written or shown: a rewrite that would not parse
// is a bug of the codemod, and the file is then left as it is. That parse is most of what a
// migration adds to a run's own parsing, and a third of each migrated file is the generated
// request-state helpers, the same text in every file (one per dialect, line ending and
// export). So the block is parsed once per run, and each output without it: the two parse
// apart and the block sits between two top-level statements of the rest, so the whole parses.
import { type Dialect, parseSource } from '../analyse/parse.ts';
import { HELPERS_SENTINEL } from '../rewrite/helpers-block.ts';

const BLOCK_START = `// ${HELPERS_SENTINEL}`;
const BLOCK_END = `// end of ${HELPERS_SENTINEL}`;

/** Helper blocks already parsed, by dialect and text. */
const parsedBlocks = new Set<string>();

/** Throws the parser's error (a ParseFailure) when `output` does not parse. */
export function verifyParses(output: string, dialect: Dialect): void {
  const begin = output.indexOf(BLOCK_START);
  const last = begin === -1 ? -1 : output.indexOf(BLOCK_END, begin);
  if (last === -1) {
    parseSource(output, dialect);
    return;
  }
  const end = last + BLOCK_END.length;
  const block = output.slice(begin, end);
  const key = `${dialect}\u0000${block}`;
  if (!parsedBlocks.has(key)) {
    parseSource(block, dialect);
    parsedBlocks.add(key);
  }
  const rest = parseSource(output.slice(0, begin) + output.slice(end), dialect).program;
  // Anywhere but between top-level statements (inside a statement, a string, a template), the
  // two parses say nothing about the whole: parse it as it is.
  const within = [...rest.directives, ...rest.body].some((node) => node.start! < begin && begin < node.end!);
  if (within) parseSource(output, dialect);
}
