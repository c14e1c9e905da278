// Type facts from the TypeScript checker (the compiler API of `typescript`; load-typescript.ts
// loads it).
//
// The planner's questions are known before it runs (src/transform.ts records them): the type
// of each local that travels in requestState, and whether a look-alike receiver is an MCP SDK
// object. `TypeScriptFacts.answer` takes the questions of many files and answers them from one
// program. Declaration and dependency files (the standard library, @types/node, the SDK) are
// parsed and bound once per run and reused by every later program; declaration files are
// shared by every tsconfig project whose options read them alike (a monorepo's projects mostly
// differ in paths and roots, not in how lib.dom.d.ts parses). The files asked about are
// dropped after their answers, so memory stays at the declarations plus one batch.
//
// This module is used in a worker thread (./type-facts-worker.ts, the default for a run) and
// in the calling thread (TsTypeFactsProvider below: tests, the jscodeshift transform).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type * as TS from 'typescript';
import { standInFor, type CarriedDeclarations } from './carried-declarations.ts';
import { composedType } from './composed-type.ts';
import type { TypeScript } from './load-typescript.ts';
import { READ_ONLY_METHODS } from './purity.ts';
import type { LocalTypeFact, TypeFacts, TypeQuestions } from './type-facts.ts';
import { isV1Specifier } from './v1-server-source.ts';

/** The answers, in the order of the questions; null where the checker cannot tell. */
export interface TypeAnswers {
  locals: Array<LocalTypeFact | null>;
  receivers: Array<boolean | null>;
  methods?: Array<boolean | null>;
  values?: Array<boolean | null>;
}

export interface TypeRequest {
  fileName: string;
  source: string;
  questions: TypeQuestions;
}

/** Type facts over the answers to a file's questions; a question not asked has no answer. */
export function factsFromAnswers(questions: TypeQuestions, answers: TypeAnswers): TypeFacts {
  const locals = new Map<string, LocalTypeFact>();
  questions.locals.forEach((q, i) => {
    const a = answers.locals[i];
    if (a) locals.set(`${q.start}:${q.name}`, a);
  });
  const receivers = new Map<string, boolean>();
  questions.receivers.forEach((q, i) => {
    const a = answers.receivers[i];
    if (a !== null && a !== undefined) receivers.set(`${q.start}:${q.end}`, a);
  });
  const methods = new Map<string, boolean>();
  (questions.methods ?? []).forEach((q, i) => {
    const a = answers.methods?.[i];
    if (a !== null && a !== undefined) methods.set(`${q.start}:${q.end}:${q.method}`, a);
  });
  const values = new Map<string, boolean>();
  (questions.values ?? []).forEach((q, i) => {
    const a = answers.values?.[i];
    if (a !== null && a !== undefined) values.set(`${q.start}:${q.end}`, a);
  });
  return {
    local: (name, start) => locals.get(`${start}:${name}`),
    fromSdk: (start, end) => receivers.get(`${start}:${end}`),
    readsOnly: (start, end, method) => methods.get(`${start}:${end}:${method}`),
    thenable: (start, end) => values.get(`${start}:${end}`),
  };
}

/** One project's compiler options and the dependency files (not declarations) already parsed for it. */
interface ProjectCache {
  options: TS.CompilerOptions;
  files: Map<string, TS.SourceFile>;
  /** The options that decide how a file parses and binds, as a key: projects with the same key share declaration files. */
  parseKey: string;
}

export class TypeScriptFacts {
  private readonly projects = new Map<string, ProjectCache>();
  /** Declaration files parsed so far, by parse key, language version and module format, and name. */
  private readonly declarations = new Map<string, TS.SourceFile>();
  /** The tsconfig.json above each directory asked about ('' for none). */
  private readonly configs = new Map<string, string>();
  /** Programs built so far (tests count them). */
  programs = 0;

  /** Declaration files parsed so far, whatever project asked for them (tests count them). */
  get declarationFiles(): number {
    return this.declarations.size;
  }

  /**
   * `carried`: the SDK declarations to resolve its modules from where a project resolves none
   * (carried-declarations.ts); without them such a project's SDK values are `any`.
   */
  constructor(
    private readonly ts: TypeScript,
    private readonly carried?: CarriedDeclarations,
  ) {}

  /** Answers the questions of every request; the requests under one tsconfig share a program. */
  answer(requests: readonly TypeRequest[]): TypeAnswers[] {
    const answers: TypeAnswers[] = new Array(requests.length);
    const groups = new Map<string, number[]>();
    const keys = requests.map((r) => normalise(path.resolve(r.fileName)));
    requests.forEach((r, i) => {
      const dir = path.dirname(path.resolve(r.fileName));
      let config = this.configs.get(dir);
      if (config === undefined) this.configs.set(dir, (config = findUp(dir, 'tsconfig.json') ?? ''));
      const group = groups.get(config) ?? [];
      group.push(i);
      groups.set(config, group);
    });
    for (const [config, indexes] of groups) {
      const project = this.project(config);
      const roots = new Map(indexes.map((i) => [keys[i]!, requests[i]!.source]));
      const program = this.program(project, roots);
      const checker = program.getTypeChecker();
      for (const i of indexes) {
        const request = requests[i]!;
        const file = program.getSourceFile(keys[i]!);
        answers[i] = file
          ? {
              locals: request.questions.locals.map((q) => localFact(this.ts, checker, file, q.name, q.start) ?? null),
              receivers: request.questions.receivers.map((q) => fromSdk(this.ts, checker, file, q.start, q.end) ?? null),
              methods: (request.questions.methods ?? []).map((q) => readsOnly(this.ts, program, checker, file, q) ?? null),
              values: (request.questions.values ?? []).map((q) => thenable(this.ts, checker, file, q.start, q.end) ?? null),
            }
          : { locals: request.questions.locals.map(() => null), receivers: request.questions.receivers.map(() => null) };
      }
    }
    return answers;
  }

  private project(config: string): ProjectCache {
    let project = this.projects.get(config);
    if (!project) {
      const { ts } = this;
      // The project's own compiler options decide how its imports resolve and what its types
      // are (paths, lib, types); only a file with no tsconfig above it gets these defaults.
      const defaults: TS.CompilerOptions = {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        allowImportingTsExtensions: true,
      };
      const overrides: TS.CompilerOptions = { skipLibCheck: true, noEmit: true };
      const parsed = config
        ? ts.getParsedCommandLineOfConfigFile(config, overrides, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })?.options
        : undefined;
      const options = { ...(parsed ?? defaults), ...overrides };
      // TypeScript 5, which most projects were written for, took every @types package when
      // `types` was not set (`randomUUID` from node:crypto typed); 6 takes none unless told.
      options.types ??= ['*'];
      project = { options, files: new Map(), parseKey: parseKey(ts, options) };
      this.projects.set(config, project);
    }
    return project;
  }

  private program(project: ProjectCache, roots: Map<string, string>): TS.Program {
    const { ts } = this;
    // Parent pointers are set by the binder when the checker is made (as tsc leaves them):
    // setting them while parsing too is one more walk of every declaration file.
    const host = ts.createCompilerHost(project.options);
    // JSDoc carries types only in JavaScript: skipping it in TypeScript files (lib.dom.d.ts is
    // mostly JSDoc) makes reading the declarations markedly faster, with the same types.
    host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeInfo;
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      const key = normalise(fileName);
      const root = roots.get(key);
      if (root !== undefined) return ts.createSourceFile(fileName, root, languageVersion, false);
      const declaration = DECLARATION_FILE.test(fileName);
      const cache = declaration ? this.declarations : project.files;
      const cacheKey = declaration ? `${project.parseKey}|${versionKey(languageVersion)}|${key}` : key;
      let file = cache.get(cacheKey);
      if (!file) {
        file = read(fileName, languageVersion, onError, shouldCreate);
        if (file) cache.set(cacheKey, file);
      }
      return file;
    };
    if (this.carried) resolveWithCarried(ts, host, project.options, this.carried);
    const program = ts.createProgram({ rootNames: [...roots.keys()], options: project.options, host });
    this.programs++;
    return program;
  }
}

/**
 * Has `host` resolve modules as the project's options make it, except for the modules this
 * package carries the declarations of (carried-declarations.ts): those come from the carried
 * copy when the project resolves no such module, or resolves a v2 package name to an older
 * version, and always for the carried files themselves (they see their own set, whatever the
 * project has).
 */
function resolveWithCarried(ts: TypeScript, host: TS.CompilerHost, options: TS.CompilerOptions, carried: CarriedDeclarations): void {
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (name) => host.getCanonicalFileName(name), options);
  // A program whose host resolves modules takes the cache from the host: without it, each file's
  // module format would read its package.json afresh (hundreds of reads a round).
  host.getModuleResolutionCache = () => cache;
  const isCarried = (file: string) => carried.folders.some((folder) => normalise(file).startsWith(folder));
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, containingSourceFile) =>
    literals.map((literal) => {
      const standIn = standInFor(carried, literal.text);
      if (standIn !== undefined && carried.modules.has(literal.text) && isCarried(containingFile)) return resolvedTo(ts, standIn);
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, compilerOptions);
      const own = ts.resolveModuleName(literal.text, containingFile, compilerOptions, host, cache, redirected, mode);
      if (standIn === undefined || (own.resolvedModule && !olderThanV2(literal.text, own.resolvedModule))) return own;
      return resolvedTo(ts, standIn);
    });
}

/** A v2 package name (`@modelcontextprotocol/server`) that the project resolves to a version before 2. */
function olderThanV2(specifier: string, resolved: TS.ResolvedModuleFull): boolean {
  const id = resolved.packageId;
  return !isV1Specifier(specifier) && id !== undefined && id.name.startsWith('@modelcontextprotocol/') && Number.parseInt(id.version, 10) < 2;
}

function resolvedTo(ts: TypeScript, file: string): TS.ResolvedModuleWithFailedLookupLocations {
  const extension = file.endsWith('.d.mts') ? ts.Extension.Dmts : file.endsWith('.d.cts') ? ts.Extension.Dcts : ts.Extension.Dts;
  return { resolvedModule: { resolvedFileName: file, extension, isExternalLibraryImport: true } };
}

/**
 * The options that decide how a source file parses and binds (TypeScript's own list, which its
 * language service uses to share files between projects), as a key; every option when this
 * TypeScript does not expose the list (then only projects with equal options share).
 */
function parseKey(ts: TypeScript, options: TS.CompilerOptions): string {
  const affecting = (ts as unknown as { sourceFileAffectingCompilerOptions?: ReadonlyArray<{ name: string }> }).sourceFileAffectingCompilerOptions;
  const names = affecting ? ['strict', ...affecting.map((option) => option.name)] : Object.keys(options).sort();
  return JSON.stringify(names.map((name) => options[name] ?? null));
}

/** The language version and module format a file is read with (a number, or the options object of recent TypeScript). */
function versionKey(version: TS.ScriptTarget | TS.CreateSourceFileOptions): string {
  return typeof version === 'object' ? `${version.languageVersion}:${version.impliedNodeFormat ?? ''}` : String(version);
}

/** `x.d.ts`, `.d.mts`, `.d.cts`, and `x.d.css.ts` (a declaration for another kind of file). */
const DECLARATION_FILE = /\.d\.(?:[cm]?ts|[^./\\]+\.ts)$/;

function normalise(fileName: string): string {
  return fileName.split(path.sep).join('/');
}

function findUp(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, name);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

/** The innermost node spanning exactly [start, end), or with `end` undefined, the identifier starting at `start`. */
function nodeAt(ts: TypeScript, file: TS.SourceFile, start: number, end?: number): TS.Node | undefined {
  let found: TS.Node | undefined;
  const visit = (node: TS.Node): void => {
    if (node.pos > start || node.end < (end ?? start)) return;
    const nodeStart = node.getStart(file);
    if (end === undefined ? ts.isIdentifier(node) && nodeStart === start : nodeStart === start && node.end === end) found = node;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function localFact(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile, name: string, start: number): LocalTypeFact | undefined {
  const node = nodeAt(ts, file, start);
  if (!node || (node as TS.Identifier).text !== name) return undefined;
  const type = typeOfLocal(ts, checker, node);
  const text = checker.typeToString(type, node, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope);
  const why = jsonProblem(ts, checker, type, node, 0);
  // A type printed as import("...") is not in scope at the handler; nor is a name declared in
  // another module, unless a module the file imports exports it (it is then imported beside).
  const imports = /import\(/.test(text) ? undefined : importsNeeded(ts, checker, file, node, type);
  const facts = {
    jsonSafe: why === undefined,
    ...(why === undefined ? {} : { why }),
    ...(unknownValue(ts, checker, type, 0) ? { unknown: true } : {}),
    ...(collection(ts, checker, type) ? { collection: true } : {}),
    ...(primitive(ts, type) ? { primitive: true } : {}),
  };
  return imports ? { text: widenLiteral(ts, type, text), ...facts, ...(imports.length > 0 ? { imports } : {}) } : { text: undefined, ...facts };
}

/**
 * The local's type: the checker's, except that a const it calls `any` whose initialiser's
 * operators and operands show a type (composed-type.ts) has that one.
 */
function typeOfLocal(ts: TypeScript, checker: TS.TypeChecker, name: TS.Node): TS.Type {
  const type = initializerType(ts, checker, name) ?? checker.getTypeAtLocation(name);
  if (!(type.flags & ts.TypeFlags.Any)) return type;
  const declaration = name.parent;
  const composable =
    ts.isVariableDeclaration(declaration) &&
    declaration.name === name &&
    !declaration.type &&
    declaration.initializer &&
    declaration.parent.flags & ts.NodeFlags.Const;
  return (composable && composedType(ts, checker, declaration.initializer)) || type;
}

/**
 * The names of the printed type that are not in scope at `at`, each with the specifier of an
 * import of this file whose module exports it; undefined when one of them has no such import.
 */
function importsNeeded(
  ts: TypeScript,
  checker: TS.TypeChecker,
  file: TS.SourceFile,
  at: TS.Node,
  type: TS.Type,
): Array<{ name: string; from: string }> | undefined {
  const typeNode = checker.typeToTypeNode(type, at, ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.UseAliasDefinedOutsideCurrentScope);
  if (!typeNode) return [];
  const names = new Set<string>();
  const visit = (n: TS.Node): void => {
    if (ts.isTypeReferenceNode(n) || ts.isExpressionWithTypeArguments(n)) {
      let name: TS.Node = ts.isTypeReferenceNode(n) ? n.typeName : n.expression;
      while (ts.isQualifiedName(name)) name = name.left;
      if (ts.isIdentifier(name)) names.add(name.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(typeNode);
  if (names.size === 0) return [];
  const out: Array<{ name: string; from: string }> = [];
  for (const name of names) {
    if (checker.resolveName(name, at, ts.SymbolFlags.Type, false)) continue;
    const from = exportingImport(ts, checker, file, name);
    if (from === undefined) return undefined;
    out.push({ name, from });
  }
  return out;
}

/** The specifier of an import of `file` whose module exports a type named `name`. */
function exportingImport(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile, name: string): string | undefined {
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const module = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (module && checker.getExportsOfModule(module).some((e) => e.getName() === name)) return statement.moduleSpecifier.text;
  }
  return undefined;
}

/**
 * The type of an unannotated `const x = <init>` read off its initializer without checking the
 * whole expression, where that is exact: a template or literal is a string (number, boolean);
 * a call of a function with a single, non-generic signature has that signature's return type
 * (awaited under `await`), whatever its arguments. Checking the arguments is what costs: in a
 * handler they are usually its parameters, whose types come from resolving the registerTool
 * call against the SDK's zod-typed overloads (about 10 ms a handler). Anything else: undefined,
 * and the checker types the whole initializer.
 */
function initializerType(ts: TypeScript, checker: TS.TypeChecker, name: TS.Node): TS.Type | undefined {
  const declaration = name.parent;
  if (!declaration || !ts.isVariableDeclaration(declaration) || declaration.name !== name || declaration.type || !declaration.initializer) return undefined;
  if (!(declaration.parent.flags & ts.NodeFlags.Const)) return undefined;
  let init = declaration.initializer;
  while (ts.isParenthesizedExpression(init)) init = init.expression;
  if (ts.isNoSubstitutionTemplateLiteral(init) || ts.isTemplateExpression(init) || ts.isStringLiteral(init)) return checker.getStringType();
  if (ts.isNumericLiteral(init)) return checker.getNumberType();
  if (init.kind === ts.SyntaxKind.TrueKeyword || init.kind === ts.SyntaxKind.FalseKeyword) return checker.getBooleanType();
  const awaited = ts.isAwaitExpression(init);
  const call = awaited ? (init as TS.AwaitExpression).expression : init;
  if (
    !ts.isCallExpression(call) ||
    call.questionDotToken ||
    ts.isOptionalChain(call) ||
    call.expression.kind === ts.SyntaxKind.SuperKeyword ||
    call.expression.kind === ts.SyntaxKind.ImportKeyword
  )
    return undefined;
  const signatures = checker.getTypeAtLocation(call.expression).getCallSignatures();
  if (signatures.length !== 1 || (signatures[0]!.typeParameters?.length ?? 0) > 0) return undefined;
  const returned = signatures[0]!.getReturnType();
  // `this` and type parameters are only known at the call: leave those to the checker.
  if (returned.flags & (ts.TypeFlags.TypeParameter | ts.TypeFlags.Any)) return undefined;
  return awaited ? checker.getAwaitedType(returned) : returned;
}

const SDK_PATH = /[\\/]@modelcontextprotocol[\\/]/;
/** The SDK's client side: v2's client package, v1's `client/` folder. */
const SDK_CLIENT_PATH = /[\\/]@modelcontextprotocol[\\/](?:client[\\/]|sdk[\\/]dist[\\/][^\\/]+[\\/]client[\\/])/;

/** A class `Client` the SDK declares (v2 bundles it in a chunk shared with other declarations). */
function sdkClientClass(ts: TypeScript, d: TS.Declaration): boolean {
  return ts.isClassDeclaration(d) && d.name?.text === 'Client' && SDK_PATH.test(d.getSourceFile().fileName);
}

/**
 * Whether `method` of the value at [start, end) only reads it: the value is, on every branch of
 * its type (undefined and null aside), a Map, Set, array, string or number of the standard
 * library, and the method one of those that read.
 */
function readsOnly(
  ts: TypeScript,
  program: TS.Program,
  checker: TS.TypeChecker,
  file: TS.SourceFile,
  q: { start: number; end: number; method: string },
): boolean | undefined {
  const node = nodeAt(ts, file, q.start, q.end);
  if (!node) return undefined;
  const type = checker.getNonNullableType(checker.getTypeAtLocation(node));
  const members = type.isUnion() ? type.types : [type];
  return members.every((member) => {
    if (member.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return false;
    const symbol = checker.getApparentType(member).getSymbol();
    const declarations = symbol?.getDeclarations() ?? [];
    // The global of the standard library (@types/node adds members to String and Array, which
    // only merge with it); a project's own `Map` is another symbol.
    const standard = declarations.some((d) => program.isSourceFileDefaultLibrary(d.getSourceFile()));
    return standard && READ_ONLY_METHODS[symbol!.getName()]?.has(q.method) === true;
  });
}

/** Whether the value at [start, end) may be a thenable: on some branch of its type, a `then` member; undefined for `any` or `unknown`. */
function thenable(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile, start: number, end: number): boolean | undefined {
  const node = nodeAt(ts, file, start, end);
  if (!node) return undefined;
  const type = checker.getTypeAtLocation(node);
  const members = type.isUnion() ? type.types : [type];
  if (members.some((m) => m.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter))) return undefined;
  return members.some((m) => checker.getPropertyOfType(checker.getApparentType(m), 'then') !== undefined);
}

function fromSdk(ts: TypeScript, checker: TS.TypeChecker, file: TS.SourceFile, start: number, end: number): boolean | undefined {
  const node = nodeAt(ts, file, start, end);
  return node ? sdkType(ts, checker, checker.getTypeAtLocation(node), 0) : undefined;
}

/** Names of the push methods: a project's own interface or type literal with them stands in for the SDK's Server. */
const PUSH_METHODS = new Set(['elicitInput', 'createMessage', 'listRoots', 'request', 'sendRequest', 'requestSampling']);

/**
 * Whether values of `type` are the SDK's: declared by an SDK package, or by the project on an
 * SDK base (`interface AppServer extends McpServer`, however unresolved the SDK's declarations
 * are: a checkout without node_modules still names its imports). Undefined when nothing can
 * tell: an unresolved type, a function handed in, or a project's own stand-in with push methods
 * (its calls are marked, never dropped). False only for a type that certainly is not the SDK's.
 */
function sdkType(ts: TypeScript, checker: TS.TypeChecker, type: TS.Type, depth: number): boolean | undefined {
  if (depth > 4 || type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  if (type.isUnion()) {
    const answers = new Set(type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null))).map((t) => sdkType(ts, checker, t, depth + 1)));
    return answers.size === 1 ? [...answers][0] : undefined;
  }
  const declarations = [type.getSymbol(), type.aliasSymbol].flatMap((s) => s?.getDeclarations() ?? []);
  if (declarations.length === 0) return undefined;
  // The SDK's MCP Client is the SDK's, but no server: its `request(...)` asks a server.
  if (declarations.some((d) => SDK_CLIENT_PATH.test(d.getSourceFile().fileName) || sdkClientClass(ts, d))) return false;
  if (declarations.some((d) => SDK_PATH.test(d.getSourceFile().fileName))) return true;
  let standIn = false;
  for (const d of declarations) {
    if (!ts.isInterfaceDeclaration(d) && !ts.isClassDeclaration(d) && !ts.isTypeLiteralNode(d)) continue;
    if (!ts.isTypeLiteralNode(d)) {
      for (const clause of d.heritageClauses ?? []) {
        for (const base of clause.types) {
          const named = importedFrom(ts, checker, base.expression);
          if (named !== undefined && /^@modelcontextprotocol\/(sdk|server|core)(\/|$)/.test(named)) return true;
          const baseType = checker.getTypeAtLocation(base);
          if (sdkType(ts, checker, baseType, depth + 1) === true) return true;
        }
      }
    }
    const local = !d.getSourceFile().isDeclarationFile;
    if (local && !ts.isClassDeclaration(d) && type.getProperties().some((p) => PUSH_METHODS.has(p.getName()))) standIn = true;
  }
  if (standIn || type.getCallSignatures().length > 0) return undefined;
  return false;
}

/** The module an identifier's import names, resolved or not (`import { McpServer } from '...'`). */
function importedFrom(ts: TypeScript, checker: TS.TypeChecker, expression: TS.Node): string | undefined {
  const symbol = checker.getSymbolAtLocation(expression);
  const declaration = symbol?.getDeclarations()?.[0];
  if (!declaration || !(ts.isImportSpecifier(declaration) || ts.isImportClause(declaration) || ts.isNamespaceImport(declaration))) return undefined;
  let at: TS.Node = declaration;
  while (!ts.isImportDeclaration(at)) at = at.parent;
  return ts.isStringLiteral(at.moduleSpecifier) ? at.moduleSpecifier.text : undefined;
}

/** `any` or `unknown`, or an array or union with such members: nothing the type says shows JSON. */
function unknownValue(ts: TypeScript, checker: TS.TypeChecker, type: TS.Type, depth: number): boolean {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
  if (depth > 3) return false;
  if (type.isUnion()) return type.types.some((t) => unknownValue(ts, checker, t, depth + 1));
  if (checker.isArrayType(type)) return checker.getTypeArguments(type as TS.TypeReference).some((t) => unknownValue(ts, checker, t, depth + 1));
  return false;
}

/** A value no code can change: a primitive, or a union of primitives (an enum's members are numbers or strings). */
function primitive(ts: TypeScript, type: TS.Type): boolean {
  if (type.isUnion()) return type.types.every((t) => primitive(ts, t));
  const f = ts.TypeFlags;
  const primitives = f.StringLike | f.NumberLike | f.BooleanLike | f.BigIntLike | f.ESSymbolLike | f.EnumLike | f.Null | f.Undefined | f.Void;
  return (type.flags & primitives) !== 0;
}

/** An array (not a tuple) or a record with a string index: as many entries as its source gave. */
function collection(ts: TypeScript, checker: TS.TypeChecker, type: TS.Type): boolean {
  if (type.isUnion()) return type.types.some((t) => collection(ts, checker, t));
  if (checker.isArrayType(type)) return true;
  return !(type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) && type.getStringIndexType() !== undefined;
}

/** `const n = 3` has type `3`; the state should carry `number`, as the user thinks of it. */
function widenLiteral(ts: TypeScript, type: TS.Type, text: string): string {
  if (type.flags & ts.TypeFlags.NumberLiteral) return 'number';
  if (type.flags & ts.TypeFlags.StringLiteral) return 'string';
  if (type.flags & ts.TypeFlags.BooleanLiteral) return 'boolean';
  return text;
}

const NON_JSON_CLASSES = new Set(['Date', 'Map', 'Set', 'WeakMap', 'WeakSet', 'Promise', 'RegExp', 'Buffer', 'Uint8Array', 'ArrayBuffer', 'URL', 'Error']);

/** Why a value of this type would not survive JSON.stringify/parse; undefined when it would. */
function jsonProblem(ts: TypeScript, checker: TS.TypeChecker, type: TS.Type, at: TS.Node, depth: number): string | undefined {
  if (depth > 6) return undefined;
  const { TypeFlags, ObjectFlags } = ts;
  const flags = type.flags;
  if (flags & (TypeFlags.Any | TypeFlags.Unknown)) return undefined;
  if (flags & (TypeFlags.BigInt | TypeFlags.BigIntLiteral)) return 'is a bigint, which JSON cannot hold';
  if (flags & (TypeFlags.StringLike | TypeFlags.NumberLike | TypeFlags.BooleanLike | TypeFlags.Null | TypeFlags.Undefined | TypeFlags.EnumLike))
    return undefined;
  if (type.isUnion() || type.isIntersection()) {
    for (const t of type.types) {
      const problem = jsonProblem(ts, checker, t, at, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (type.getCallSignatures().length > 0) return `is a function (${checker.typeToString(type, at)})`;
  if (type.getConstructSignatures().length > 0) return `is a class (${checker.typeToString(type, at)})`;
  const symbol = type.getSymbol();
  const symbolName = symbol?.getName();
  if (symbolName && NON_JSON_CLASSES.has(symbolName)) return `is a ${symbolName}, which does not survive a JSON round trip`;
  if (!(flags & TypeFlags.Object)) return undefined;
  const reference = (type as TS.ObjectType).objectFlags & ObjectFlags.Reference ? (type as TS.TypeReference) : undefined;
  const isArray = reference && (symbolName === 'Array' || symbolName === 'ReadonlyArray') && checker.getTypeArguments(reference).length === 1;
  const isTuple = reference && reference.target.objectFlags & ObjectFlags.Tuple;
  if (isArray || isTuple) {
    for (const t of checker.getTypeArguments(reference!)) {
      const problem = jsonProblem(ts, checker, t, at, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  // Instances of user classes lose their prototype (methods, getters) in JSON.
  const declaration = symbol?.getDeclarations()?.[0];
  if (declaration && declaration.kind === ts.SyntaxKind.ClassDeclaration) return `is an instance of class ${symbolName}, which loses its methods in JSON`;
  for (const property of type.getProperties()) {
    const problem = jsonProblem(ts, checker, checker.getTypeOfSymbolAtLocation(property, at), at, depth + 1);
    if (problem) return `has a property \`${property.getName()}\` that ${problem}`;
  }
  return undefined;
}

/** While files are still being read, a round of the checker starts once this many files wait... */
export const MIN_ROUND_FILES = 16;
/** ...or when no question has come for this long (a caller that never flushes). */
export const QUIET_MS = 250;

/**
 * Type facts answered in this thread: one TypeScriptFacts for the provider's lifetime, loaded
 * on the first question. Rounds as in the checker's thread (type-facts-worker.ts): the first
 * question at once; later ones wait, to share a program, until MIN_ROUND_FILES wait, the engine
 * has read every file (`flush`: from then on each turn of the event loop is a round) or waits
 * for answers (`hurry`), or no question has come for QUIET_MS.
 */
export class TsTypeFactsProvider {
  private facts?: TypeScriptFacts;
  private loading?: Promise<[TypeScript, CarriedDeclarations | undefined]>;
  private queue: Array<{ request: TypeRequest; resolve: (facts: TypeFacts) => void; reject: (error: unknown) => void }> = [];
  private rounds = 0;
  private flushed = false;
  private scheduled = false;
  private quiet?: NodeJS.Timeout;

  constructor(
    private readonly load: () => TypeScript | Promise<TypeScript> = async () => (await import('./load-typescript.ts')).loadTypeScript(),
    private readonly loadCarried: () => CarriedDeclarations | undefined | Promise<CarriedDeclarations | undefined> = async () =>
      (await import('./load-typescript.ts')).loadCarriedDeclarations(),
  ) {}

  /** Programs built so far (0 while TypeScript has not been needed). */
  get programs(): number {
    return this.facts?.programs ?? 0;
  }

  forFile(fileName: string, source: string, questions: TypeQuestions): Promise<TypeFacts> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { fileName, source, questions }, resolve, reject });
      if (this.rounds > 0 && !this.flushed && this.queue.length < MIN_ROUND_FILES) this.waitQuietly();
      else this.schedule();
    });
  }

  /** Every file has been read: answer what waits now, and each later question as it comes. */
  flush(): void {
    this.flushed = true;
    this.schedule();
  }

  /** The engine waits for answers: answer what waits now. */
  hurry(): void {
    this.schedule();
  }

  /** The end of a run: the next run's first question is answered at once again (TypeScript stays loaded). */
  close(): Promise<void> {
    this.rounds = 0;
    this.flushed = false;
    return Promise.resolve();
  }

  private waitQuietly(): void {
    clearTimeout(this.quiet);
    this.quiet = setTimeout(() => this.schedule(), QUIET_MS);
  }

  /** A round with what waits at the end of this turn of the event loop. */
  private schedule(): void {
    clearTimeout(this.quiet);
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => void this.answerQueued());
  }

  private async answerQueued(): Promise<void> {
    this.scheduled = false;
    this.rounds++;
    const batch = this.queue;
    this.queue = [];
    try {
      const [ts, carried] = await (this.loading ??= Promise.all([this.load(), this.loadCarried()]));
      const answers = (this.facts ??= new TypeScriptFacts(ts, carried)).answer(batch.map((b) => b.request));
      batch.forEach((b, i) => b.resolve(factsFromAnswers(b.request.questions, answers[i]!)));
    } catch (error) {
      for (const b of batch) b.reject(error);
    }
  }
}
