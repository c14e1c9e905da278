// Parsing is the one place that knows which syntax a file may use: the extension decides
// whether TypeScript and JSX are on. The same @babel/parser powers jscodeshift's `tsx`
// parser, so offsets here match what a stock jscodeshift run sees.
import type { ParserPlugin } from '@babel/parser';
import type { File } from '@babel/types';
import { parse } from './babel.cjs';

export type Dialect = 'ts' | 'tsx' | 'js';

export function dialectOf(fileName: string): Dialect {
  if (/\.(c|m)?tsx?$/.test(fileName)) return fileName.endsWith('x') ? 'tsx' : 'ts';
  return 'js';
}

export class ParseFailure extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'ParseFailure';
  }
}

/** `module` parses as a module only (a file is read as one when it imports or exports). */
export function parseSource(source: string, dialect: Dialect, sourceType: 'unambiguous' | 'module' = 'unambiguous'): File {
  const plugins: ParserPlugin[] = dialect === 'js' ? ['jsx'] : dialect === 'tsx' ? ['typescript', 'jsx'] : ['typescript'];
  try {
    return parse(source, {
      sourceType,
      allowReturnOutsideFunction: true,
      // Nothing reads comments off nodes (markers are found in File.comments, and rewrites are
      // splices of the text): not attaching them parses ~8 % faster.
      attachComment: false,
      allowAwaitOutsideFunction: true,
      // `assert { type: 'json' }`, import attributes' older spelling, is still in real projects
      // (TypeScript and Node 20 accept it): read, and left as it is written.
      plugins: [...plugins, 'decorators-legacy', 'importAttributes', 'deprecatedImportAssert', 'explicitResourceManagement'],
    });
  } catch (error) {
    const e = error as Error & { loc?: { line: number; column: number } };
    // Babel appends ` (line:column)` to its messages; the location is carried apart.
    throw new ParseFailure(e.message.replace(/\s*\(\d+:\d+\)$/, ''), e.loc?.line, e.loc?.column);
  }
}
