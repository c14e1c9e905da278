// The parser of `mrtr.configs.recommended`, so that a project lints its TypeScript and
// JavaScript server files with no parser to add. The plugin's rules read the file's text, not
// ESLint's tree; but the parser a flat config names is the parser of every rule on the files it
// covers, the project's own rules included. So this one is the parser the project would have:
// - its typescript-eslint parser, when one resolves from the file: it reads TypeScript and
//   JavaScript, and gets the parserOptions the project's config gives (its rules, type-aware
//   ones too, see what they always see, wherever the config puts ours);
// - else, for JavaScript, ESLint's own parser (espree), as ESLint would use;
// - else, for TypeScript, a Program with no statements that holds the file's comments: the
//   `eslint-disable` comments still work, and no rule meant for JavaScript misreads the types.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AST, Linter } from 'eslint';
import { dialectOf, ParseFailure, parseSource } from '../analyse/parse.ts';
import { packageVersion } from '../package-version.ts';

type ParserOptions = Linter.ParserOptions & { filePath?: string };
/** A parser's parseForESLint: the tree, and what else the parser gives ESLint (scope manager, services, visitor keys). */
type ParseForESLint = (code: string, options: ParserOptions) => { ast: AST.Program };

/** The packages a project's typescript-eslint parser comes in: the parser's own, or the flat-config package (all a pnpm project may resolve). */
const PROJECT_PARSERS: ReadonlyArray<{ name: string; parser: (module: Record<string, unknown>) => unknown }> = [
  { name: '@typescript-eslint/parser', parser: (module) => module },
  { name: 'typescript-eslint', parser: (module) => module.parser },
];

/** The project's parser by folder (undefined: none resolves there). */
const projectParsers = new Map<string, ParseForESLint | undefined>();

/** The parseForESLint of the typescript-eslint parser that resolves from `file`'s folder, if one does. */
function projectParser(file: string): ParseForESLint | undefined {
  const folder = path.dirname(file);
  if (projectParsers.has(folder)) return projectParsers.get(folder);
  const require = createRequire(path.join(folder, 'eslint.config.js'));
  let found: ParseForESLint | undefined;
  for (const candidate of PROJECT_PARSERS) {
    let resolved: string;
    try {
      resolved = require.resolve(candidate.name);
    } catch {
      continue; // not installed here; a package that is but fails to load is ESLint's error to show
    }
    const parser = candidate.parser(require(resolved) as Record<string, unknown>) as { parseForESLint?: unknown } | undefined;
    if (typeof parser?.parseForESLint === 'function') {
      found = parser.parseForESLint.bind(parser) as ParseForESLint;
      break;
    }
  }
  projectParsers.set(folder, found);
  return found;
}

type Parse = (code: string, options: ParserOptions) => AST.Program;
let espree: Parse | undefined;

/** The parser ESLint uses for JavaScript by default: espree, as the ESLint beside this package has it. */
function eslintParser(): Parse {
  if (!espree) {
    const eslint = createRequire(import.meta.url).resolve('eslint');
    const module = createRequire(eslint)('espree') as { parse: Parse };
    espree = module.parse.bind(module);
  }
  return espree;
}

/** The file's comments as ESLint keeps them (none when it does not parse: the not-checked rule says why). */
function commentsOf(code: string, file: string): AST.Program['comments'] {
  let comments;
  try {
    comments = parseSource(code, dialectOf(file)).comments ?? [];
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    return [];
  }
  // Babel gives every comment its place (start, end and loc are optional in its types only).
  return comments.map(({ type, value, start, end, loc }) => ({
    type: type === 'CommentLine' ? 'Line' : 'Block',
    value,
    range: [start!, end!],
    loc: { start: { line: loc!.start.line, column: loc!.start.column }, end: { line: loc!.end.line, column: loc!.end.column } },
  }));
}

/** A Program with no statements over the whole text, and its comments. */
function emptyProgram(code: string, file: string): AST.Program {
  const lines = code.split(/\r\n|[\r\n\u2028\u2029]/);
  return {
    type: 'Program',
    sourceType: 'module',
    body: [],
    tokens: [],
    comments: commentsOf(code, file),
    range: [0, code.length],
    loc: { start: { line: 1, column: 0 }, end: { line: lines.length, column: lines.at(-1)!.length } },
  };
}

export const parser = {
  meta: { name: 'mrtr-codemod/parser', version: packageVersion() },
  parseForESLint(code: string, options: ParserOptions = {}): { ast: AST.Program } {
    // ESLint names the file; text linted without a name is taken to be JavaScript in the current folder.
    const file = options.filePath && path.isAbsolute(options.filePath) ? options.filePath : path.join(process.cwd(), 'file.js');
    const own = projectParser(file);
    if (own) return own(code, options);
    if (dialectOf(file) !== 'js') return { ast: emptyProgram(code, file) };
    const jsx = file.endsWith('.jsx') || options.ecmaFeatures?.jsx === true;
    return { ast: eslintParser()(code, { ...options, ecmaFeatures: { ...options.ecmaFeatures, jsx } }) };
  },
} satisfies Linter.Parser;
