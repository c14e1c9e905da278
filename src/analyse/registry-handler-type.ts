// A project registry's own type for the handlers it registers, read from the annotation of what
// it iterates (`declarations: ToolDeclaration[]`, through the module's aliases and interfaces):
// `factory: (context) => ToolCallback | Promise<ToolCallback>`, `ToolCallback = (args: Args,
// ctx: ServerContext) => ...`. When that type puts typed arguments first for every handler, a
// handler the SDK calls with its context alone (a tool without a schema) cannot take the
// context as its parameter in a way the type allows: the added `ctx: ServerContext` would not
// typecheck where the declaration is written.
import type { Node } from '@babel/types';
import { annotatedType } from './ast.ts';

/** How deep aliases are followed. */
const MAX_DEPTH = 8;

/** A handler type of the registry's module: its name, the line it is declared on, (set by the engine) the module's file name, and (for a handler) the schema's key. */
export interface HandlerType {
  name: string;
  line: number;
  file?: string;
  /** The declaration's property whose presence makes the registry register a schema (then the context comes second). */
  schemaKey?: string;
}

/**
 * The registry's handler type when it types every handler's first parameter as its arguments
 * (not `any`); undefined when it does not, or when the type is not read here.
 */
export function argumentsFirstType(
  annotation: Node | null | undefined,
  handlerKey: string,
  factory: boolean,
  types: ReadonlyMap<string, Node>,
): HandlerType | undefined {
  const element = elementOf(typeOf(annotation), types);
  const member = element && memberType(element, handlerKey, types);
  if (!member) return undefined;
  const handlers = factory ? returnedTypes(member, types) : [member];
  if (!handlers || handlers.length === 0) return undefined;
  let found: HandlerType | undefined;
  for (const handler of handlers) {
    const named = argumentsFirst(handler, types);
    if (!named) return undefined;
    found ??= named;
  }
  return found;
}

/** The module's type aliases and interfaces by name (one declaration each). */
export function typeDeclarations(declarations: readonly Node[]): Map<string, Node> {
  const types = new Map<string, Node>();
  const twice = new Set<string>();
  for (const d of declarations) {
    if ((d.type !== 'TSTypeAliasDeclaration' && d.type !== 'TSInterfaceDeclaration') || d.id.type !== 'Identifier') continue;
    if (types.has(d.id.name)) twice.add(d.id.name);
    types.set(d.id.name, d);
  }
  for (const name of twice) types.delete(name);
  return types;
}

function typeOf(annotation: Node | null | undefined): Node | undefined {
  if (!annotation) return undefined;
  return annotation.type === 'TSTypeAnnotation' ? annotatedType(annotation) : annotation;
}

/** What a type names, through parentheses and the module's aliases: an interface, a type literal, a function type, a union... */
export function resolved(type: Node | undefined, types: ReadonlyMap<string, Node>, depth = 0): Node | undefined {
  if (!type || depth > MAX_DEPTH) return undefined;
  if (type.type === 'TSParenthesizedType') return resolved(type.typeAnnotation, types, depth + 1);
  if (type.type !== 'TSTypeReference' || type.typeName.type !== 'Identifier') return type;
  const declared = types.get(type.typeName.name);
  if (declared?.type === 'TSTypeAliasDeclaration') return resolved(declared.typeAnnotation, types, depth + 1);
  return declared ?? type;
}

/** The element type of an array type (`T[]`, `readonly T[]`, `Array<T>`, `ReadonlyArray<T>`). */
function elementOf(type: Node | undefined, types: ReadonlyMap<string, Node>): Node | undefined {
  const t = resolved(type, types);
  if (!t) return undefined;
  if (t.type === 'TSArrayType') return resolved(t.elementType, types);
  if (t.type === 'TSTypeOperator' && t.operator === 'readonly') return elementOf(t.typeAnnotation, types);
  if (t.type === 'TSTypeReference' && t.typeName.type === 'Identifier' && /^(ReadonlyArray|Array)$/.test(t.typeName.name))
    return resolved(t.typeParameters?.params[0], types);
  return undefined;
}

/** The type of member `key` of an interface or a type literal (a method signature is its own function type). */
function memberType(type: Node, key: string, types: ReadonlyMap<string, Node>): Node | undefined {
  const members = type.type === 'TSInterfaceDeclaration' ? type.body.body : type.type === 'TSTypeLiteral' ? type.members : undefined;
  const member = members?.find(
    (m) => (m.type === 'TSPropertySignature' || m.type === 'TSMethodSignature') && m.key.type === 'Identifier' && m.key.name === key,
  );
  if (member?.type === 'TSMethodSignature') return member;
  return member?.type === 'TSPropertySignature' ? resolved(typeOf(member.typeAnnotation), types) : undefined;
}

/** What a factory's function type returns, each member of a union, a Promise's value unwrapped; undefined when it is not a function type. */
export function returnedTypes(factory: Node, types: ReadonlyMap<string, Node>): Node[] | undefined {
  if (factory.type !== 'TSFunctionType' && factory.type !== 'TSMethodSignature') return undefined;
  const out: Node[] = [];
  const add = (type: Node | undefined, depth: number): boolean => {
    const t = resolved(type, types);
    if (!t || depth > MAX_DEPTH) return false;
    if (t.type === 'TSUnionType') return t.types.every((member) => add(member, depth + 1));
    if (t.type === 'TSTypeReference' && t.typeName.type === 'Identifier' && t.typeName.name === 'Promise') return add(t.typeParameters?.params[0], depth + 1);
    out.push(t);
    return true;
  };
  return add(typeOf(factory.typeAnnotation), 0) ? out : undefined;
}

/** The handler type when it is a function type whose first of two or more parameters is typed, and not `any`. */
function argumentsFirst(handler: Node, types: ReadonlyMap<string, Node>): HandlerType | undefined {
  if (handler.type !== 'TSFunctionType' && handler.type !== 'TSMethodSignature') return undefined;
  const [first] = handler.parameters;
  if (handler.parameters.length < 2 || first?.type !== 'Identifier') return undefined;
  const type = typeOf(first.typeAnnotation);
  if (!type || type.type === 'TSAnyKeyword') return undefined;
  return nameOf(handler, types);
}

/** The name the module gives a function type (its alias's), or the member's for a method signature, and where. */
function nameOf(handler: Node, types: ReadonlyMap<string, Node>): HandlerType {
  if (handler.type === 'TSMethodSignature' && handler.key.type === 'Identifier') return { name: handler.key.name, line: handler.loc!.start.line };
  for (const [name, declared] of types)
    if (declared.type === 'TSTypeAliasDeclaration' && resolved(declared.typeAnnotation, types) === handler) return { name, line: declared.loc!.start.line };
  return { name: 'its handler type', line: handler.loc!.start.line };
}
