// Type facts from the TypeScript checker, through ts-morph. Loaded only when a TypeScript
// file actually has a local to lift: the compiler costs about a second to start, and most
// files (and `check`) never need it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Node as MorphNode, Project, SourceFile, Type } from 'ts-morph';
import type { LocalTypeFact, TypeFacts } from './type-facts.ts';

type Morph = typeof import('ts-morph');

/** One checker shared by every file of a run (so the SDK's types are read once). */
export class TsTypeFactsProvider {
  private project?: Project;
  private morph?: Morph;

  constructor(private readonly loadMorph: () => Promise<Morph> = () => import('ts-morph')) {}

  async forFile(fileName: string, source: string): Promise<TypeFacts> {
    const morph = (this.morph ??= await this.loadMorph());
    const project = (this.project ??= createProject(morph, fileName));
    const file = project.createSourceFile(path.resolve(fileName), source, { overwrite: true });
    return { local: (name, start) => localFact(morph, file, name, start), fromSdk: (start, end) => fromSdk(file, start, end) };
  }
}

function createProject(morph: Morph, fileName: string): Project {
  const tsconfig = findUp(path.dirname(path.resolve(fileName)), 'tsconfig.json');
  const { ts } = morph;
  // The project's own compiler options decide how its imports resolve and what its types are
  // (paths, lib, types); only a file with no tsconfig above it gets these defaults.
  const defaults = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
  };
  return new morph.Project({
    ...(tsconfig ? { tsConfigFilePath: tsconfig, skipAddingFilesFromTsConfig: true } : {}),
    compilerOptions: { ...(tsconfig ? {} : defaults), skipLibCheck: true, noEmit: true },
    skipFileDependencyResolution: false,
  });
}

function findUp(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, name);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

function localFact(morph: Morph, file: SourceFile, name: string, start: number): LocalTypeFact | undefined {
  const node = file.getDescendantAtPos(start);
  if (!node || node.getText() !== name) return undefined;
  const type = node.getType();
  const flags = morph.ts.TypeFormatFlags.NoTruncation | morph.ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  const text = type.getText(node, flags);
  const why = jsonProblem(type, node, 0);
  // A type printed as import("...") is not in scope at the handler: the user must name it.
  const nameable = !/import\(/.test(text);
  return { text: nameable ? widenLiteral(type, text) : undefined, jsonSafe: why === undefined, why };
}

const SDK_PATH = /[\\/]@modelcontextprotocol[\\/]/;

function fromSdk(file: SourceFile, start: number, end: number): boolean | undefined {
  let node: MorphNode | undefined = file.getDescendantAtPos(start);
  while (node && !(node.getStart() === start && node.getEnd() === end)) node = node.getParent();
  if (!node) return undefined;
  const type = node.getType();
  if (type.isAny() || type.isUnknown()) return undefined;
  const declarations = [type.getSymbol(), type.getAliasSymbol()].flatMap((s) => s?.getDeclarations() ?? []);
  if (declarations.length === 0) return undefined;
  return declarations.some((d) => SDK_PATH.test(d.getSourceFile().getFilePath()));
}

/** `const n = 3` has type `3`; the state should carry `number`, as the user thinks of it. */
function widenLiteral(type: Type, text: string): string {
  if (type.isNumberLiteral()) return 'number';
  if (type.isStringLiteral()) return 'string';
  if (type.isBooleanLiteral()) return 'boolean';
  return text;
}

const NON_JSON_CLASSES = new Set(['Date', 'Map', 'Set', 'WeakMap', 'WeakSet', 'Promise', 'RegExp', 'Buffer', 'Uint8Array', 'ArrayBuffer', 'URL', 'Error']);

/** Why a value of this type would not survive JSON.stringify/parse; undefined when it would. */
function jsonProblem(type: Type, at: MorphNode, depth: number): string | undefined {
  if (depth > 6) return undefined;
  if (type.isAny() || type.isUnknown()) return undefined;
  if (type.isString() || type.isNumber() || type.isBoolean() || type.isNull() || type.isUndefined() || type.isLiteral() || type.isBooleanLiteral()) return undefined;
  if (type.isEnum() || type.isEnumLiteral()) return undefined;
  if (type.isUnion()) {
    for (const t of type.getUnionTypes()) {
      const problem = jsonProblem(t, at, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (type.isIntersection()) {
    for (const t of type.getIntersectionTypes()) {
      const problem = jsonProblem(t, at, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  const text = type.getText(at);
  if (type.getCallSignatures().length > 0) return `is a function (${text})`;
  if (type.getConstructSignatures().length > 0) return `is a class (${text})`;
  const symbolName = type.getSymbol()?.getName();
  if (symbolName && NON_JSON_CLASSES.has(symbolName)) return `is a ${symbolName}, which does not survive a JSON round trip`;
  if (text.startsWith('bigint') || type.getFlags() & 64 /* BigInt */) return 'is a bigint, which JSON cannot hold';
  if (type.isArray() || type.isTuple()) {
    const elements = type.isArray() ? [type.getArrayElementTypeOrThrow()] : type.getTupleElements();
    for (const t of elements) {
      const problem = jsonProblem(t, at, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (type.isObject()) {
    // Instances of user classes lose their prototype (methods, getters) in JSON.
    const declaration = type.getSymbol()?.getDeclarations()[0];
    if (declaration && declaration.getKindName() === 'ClassDeclaration') return `is an instance of class ${symbolName}, which loses its methods in JSON`;
    for (const property of type.getProperties()) {
      const propertyType = property.getTypeAtLocation(at);
      const problem = jsonProblem(propertyType, at, depth + 1);
      if (problem) return `has a property \`${property.getName()}\` that ${problem}`;
    }
    return undefined;
  }
  return undefined;
}
