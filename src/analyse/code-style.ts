// The file's own style, which every line the migration writes follows: the quote its module
// specifiers use (its string literals where it has none) and whether its statements end with
// semicolons. Indentation is taken where each line goes (src/core/vocabulary.ts).
import type { Program } from '@babel/types';

export interface CodeStyle {
  quote: "'" | '"';
  semi: boolean;
}

export function codeStyleOf(source: string, program: Program): CodeStyle {
  return { quote: quoteOf(source, program), semi: semicolonsOf(source, program) };
}

function quoteOf(source: string, program: Program): CodeStyle['quote'] {
  let single = 0;
  let double = 0;
  const count = (start: number) => {
    if (source[start] === "'") single++;
    else if (source[start] === '"') double++;
  };
  for (const s of program.body) {
    if ((s.type === 'ImportDeclaration' || s.type === 'ExportAllDeclaration' || s.type === 'ExportNamedDeclaration') && s.source) count(s.source.start!);
  }
  if (single + double === 0) {
    // No module specifiers: the first string literals of the text.
    for (const m of source.matchAll(/(?<![\w$\\])(['"])(?:(?!\1)[^\\\n]|\\.)*\1/g)) {
      count(m.index);
      if (single + double >= 20) break;
    }
  }
  return double > single ? '"' : "'";
}

/** Whether most statements that may end with a semicolon do. */
function semicolonsOf(source: string, program: Program): boolean {
  let with_ = 0;
  let without = 0;
  for (const s of program.body) {
    const checked =
      s.type === 'ImportDeclaration' ||
      s.type === 'ExpressionStatement' ||
      (s.type === 'VariableDeclaration' && !s.declare) ||
      s.type === 'ReturnStatement' ||
      s.type === 'ThrowStatement';
    if (!checked) continue;
    if (source.charCodeAt(s.end! - 1) === 59 /* ; */) with_++;
    else without++;
  }
  return with_ >= without;
}
