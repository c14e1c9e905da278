// Analysis of one file: a pure function from source text to the facts the planner needs.
import type { CallExpression, Comment, ImportDeclaration, NewExpression, Node, Program, Statement } from '@babel/types';
import { boundNames } from './ast.ts';
import { indexFile, type FileIndex } from './file-index.ts';
import { findHandlers, type HandlerSite, type ImportedRegistration } from './find-handlers.ts';
import { registryHandlers, withRegistryHandlers } from './registry-declarations.ts';
import { findRegistries, type Registry } from './tool-registries.ts';
import { findLegacySites, findUrlElicitationThrows, type LegacySite, type UrlElicitationThrow } from './find-sites.ts';
import { dialectOf, ParseFailure, parseSource } from './parse.ts';
import { SERVER_PACKAGE } from './sdk-surface.ts';

export interface FileAnalysis {
  source: string;
  /** The parsed program, for questions the planner asks lazily (the call graph). */
  program: Program;
  /** Every comment of the file, in order (`check` finds markers in them). */
  comments: Comment[];
  /** The nodes the analysis passes look at, from one walk (the planner's call graph uses it too). */
  index: FileIndex;
  fileName: string;
  /** TypeScript syntax: the rewrite writes type arguments and annotations. */
  typed: boolean;
  handlers: HandlerSite[];
  /** Registrations whose name is neither a literal nor a const string: their handlers are not migrated. */
  unnamedHandlers: CallExpression[];
  /** Registrations of functions other modules of the project export (those modules migrate them). */
  importedRegistrations: ImportedRegistration[];
  /** The project's own tool registries in this module (loops registering declarations' factories' handlers). */
  registries: Registry[];
  sites: LegacySite[];
  /** `throw new UrlElicitationRequiredError([...])` statements. */
  urlThrows: UrlElicitationThrow[];
  /** `new McpServer(...)` expressions, where the verifier is wired. */
  serverConstructions: NewExpression[];
  /** The import from @modelcontextprotocol/server that the migration's names are merged into. */
  serverImport?: Node;
  /** Every name imported from @modelcontextprotocol/server, by any import, and whether as a value or a type only. */
  serverImported: Map<string, 'value' | 'type'>;
  /**
   * Every name declared anywhere in the module (variables, functions, classes, parameters,
   * catch bindings, imports, types): a name the migration adds must not be one of them.
   */
  declaredAnywhere: Set<string>;
  /** Top-level names this module exports (a helper other modules may call from their handlers). */
  exportedNames: Set<string>;
  /** Imports by local name: which module specifier and which export (for calls into other modules). */
  importedNames: Map<string, { from: string; imported: string }>;
  /** Offset just after the last top-level import: where generated helpers go. */
  afterImports: number;
}

/** The file's analysis, or undefined when its text does not parse (for a pass that leaves such a text as it is). */
export function analyseIfParses(source: string, fileName: string): FileAnalysis | undefined {
  try {
    return analyseFile(source, fileName);
  } catch (error) {
    if (error instanceof ParseFailure) return undefined;
    throw error;
  }
}

export function analyseFile(source: string, fileName: string): FileAnalysis {
  const { dialect, ast, program, imports, exportedNames, index } = readModule(source, fileName);
  const found = findHandlers(index, imports.importedNames);
  // A project's own registry in this module, and the handlers its declarations here hold.
  const registries = findRegistries(index);
  const handlers = withRegistryHandlers(found.handlers, registryHandlers(index, imports.importedNames, registries));
  return {
    source,
    program,
    comments: ast.comments ?? [],
    index,
    fileName,
    typed: dialect !== 'js',
    handlers,
    unnamedHandlers: found.unnamed,
    importedRegistrations: found.imported,
    registries,
    sites: findLegacySites(index, imports.importedNames),
    urlThrows: findUrlElicitationThrows(index),
    // Where the server is built (the verifier is wired there).
    serverConstructions: index.constructions.filter((node) => node.callee.type === 'Identifier' && imports.serverClasses.has(node.callee.name)),
    serverImport: imports.serverImport,
    serverImported: imports.serverImported,
    declaredAnywhere: declaredAnywhere(index),
    exportedNames,
    importedNames: imports.importedNames,
    afterImports: imports.afterImports,
  };
}

/**
 * Only what `check` reads of a file (its comments and sites): the analysis of a text a run
 * made, which nothing plans, without the handlers, registries and names the planner needs.
 */
export function analyseSites(source: string, fileName: string): Pick<FileAnalysis, 'source' | 'comments' | 'sites'> {
  const { ast, imports, index } = readModule(source, fileName);
  return { source, comments: ast.comments ?? [], sites: findLegacySites(index, imports.importedNames) };
}

/** The file parsed, its imports and exports read, and its nodes indexed. */
function readModule(source: string, fileName: string) {
  const dialect = dialectOf(fileName);
  const ast = parseSource(source, dialect);
  const program = ast.program;
  const imports: FileImports = { afterImports: 0, importedNames: new Map(), serverImported: new Map(), serverClasses: new Set(['McpServer']) };
  const exportedNames = new Set<string>();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') addImport(statement, imports);
    else addExports(statement, exportedNames);
  }
  return { dialect, ast, program, imports, exportedNames, index: indexFile(program) };
}

/** What the file's imports say, gathered statement by statement. */
interface FileImports {
  afterImports: number;
  serverImport?: Node;
  importedNames: Map<string, { from: string; imported: string }>;
  serverImported: Map<string, 'value' | 'type'>;
  /** The local names of McpServer, and of the low-level Server (its options take requestState too). */
  serverClasses: Set<string>;
}

function addImport(statement: ImportDeclaration, imports: FileImports): void {
  imports.afterImports = statement.end!;
  for (const spec of statement.specifiers) {
    const imported =
      spec.type === 'ImportSpecifier'
        ? spec.imported.type === 'Identifier'
          ? spec.imported.name
          : spec.imported.value
        : spec.type === 'ImportDefaultSpecifier'
          ? 'default'
          : '*';
    imports.importedNames.set(spec.local.name, { from: statement.source.value, imported });
    if (statement.source.value !== SERVER_PACKAGE || spec.type !== 'ImportSpecifier') continue;
    const typeOnly = statement.importKind === 'type' || spec.importKind === 'type';
    if (imports.serverImported.get(spec.local.name) !== 'value') imports.serverImported.set(spec.local.name, typeOnly ? 'type' : 'value');
    if (imported === 'McpServer' || imported === 'Server') imports.serverClasses.add(spec.local.name);
  }
  if (
    statement.source.value === SERVER_PACKAGE &&
    statement.importKind !== 'type' &&
    statement.specifiers.length > 0 &&
    statement.specifiers.every((s) => s.type === 'ImportSpecifier')
  ) {
    imports.serverImport ??= statement;
  }
}

/** The names a top-level statement exports (`export const a`, `export function f`, `export { a }`). */
function addExports(statement: Statement, exportedNames: Set<string>): void {
  if ((statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') && statement.declaration) {
    const decl = statement.declaration as Node;
    if (decl.type === 'VariableDeclaration') for (const d of decl.declarations) for (const b of boundNames(d.id)) exportedNames.add(b.name);
    if ((decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration') && decl.id) exportedNames.add(decl.id.name);
  }
  if (statement.type === 'ExportNamedDeclaration' && !statement.source) {
    for (const spec of statement.specifiers) if (spec.type === 'ExportSpecifier') exportedNames.add(spec.local.name);
  }
}

/** Every name declared anywhere in the module, from the index's lists. */
function declaredAnywhere(index: FileIndex): Set<string> {
  const names = new Set<string>();
  for (const { node } of index.declarators) for (const b of boundNames(node.id)) names.add(b.name);
  for (const { node } of index.functions) {
    for (const p of node.params) for (const b of boundNames(p as Node)) names.add(b.name);
    if ((node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression') && node.id) names.add(node.id.name);
  }
  for (const node of index.otherDeclarations) {
    if ((node.type === 'ClassDeclaration' || node.type === 'ClassExpression') && node.id) names.add(node.id.name);
    if (node.type === 'CatchClause' && node.param) for (const b of boundNames(node.param)) names.add(b.name);
    if (
      (node.type === 'TSTypeAliasDeclaration' || node.type === 'TSInterfaceDeclaration' || node.type === 'TSEnumDeclaration') &&
      node.id.type === 'Identifier'
    )
      names.add(node.id.name);
    if (node.type === 'ImportSpecifier' || node.type === 'ImportDefaultSpecifier' || node.type === 'ImportNamespaceSpecifier') names.add(node.local.name);
  }
  return names;
}
