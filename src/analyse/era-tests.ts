// Conditions that choose by protocol era. A server built by `serveStdio(factory)` or
// `createMcpHandler(factory)` is told which era it serves (`McpRequestContext.era`, 'legacy' for
// 2025 connections, 'modern' for 2026-07-28), and a dual-era handler tests it: `if (reqCtx.era
// === 'legacy') { ...push requests... }` beside its own inputRequired arm. Here: which era a
// condition holds on, when it tests the era and nothing else, in every spelling real code uses
// (the context's `era`, destructured or copied into a const, compared either way round, negated,
// held in a const of its own, or a parameter typed as an era).
import type { CallExpression, Node } from '@babel/types';
import { annotatedType, stringValue, type FunctionNode } from './ast.ts';
import type { Binding, FileBindings, Imports } from './bindings.ts';
import type { FileIndex } from './file-index.ts';
import { namedFunctions } from './file-index.ts';

export type ProtocolEra = 'legacy' | 'modern';

/** The SDK functions that call a factory with the request context (the era it will serve). */
const FACTORY_ENTRIES: ReadonlySet<string> = new Set(['serveStdio', 'createMcpHandler', 'legacyStatelessFallback']);

/** Where the SDK's names come from. */
const SDK_PACKAGE = /^@modelcontextprotocol\//;

export interface EraScope {
  bindings: Pick<FileBindings, 'bindingOf'>;
  imports: Imports;
  index: FileIndex;
  /** The file's server factories (see serverFactories). */
  factories: ReadonlySet<FunctionNode>;
}

/** Which era `test` holds on, when it tests the protocol era and nothing else; undefined otherwise. */
export function eraWhenTrue(test: Node, functions: readonly FunctionNode[], scope: EraScope, depth = 0): ProtocolEra | undefined {
  if (depth > 4) return undefined;
  const node = unwrapped(test);
  if (node.type === 'UnaryExpression' && node.operator === '!') return flipped(eraWhenTrue(node.argument, functions, scope, depth + 1));
  if (node.type === 'BinaryExpression' && ['===', '==', '!==', '!='].includes(node.operator)) {
    const compared = (value: Node, literal: Node) => (isEraValue(value, functions, scope, depth) ? eraName(stringValue(literal)) : undefined);
    const era = compared(node.left as Node, node.right) ?? compared(node.right, node.left as Node);
    return node.operator.startsWith('!') ? flipped(era) : era;
  }
  if (node.type === 'Identifier') {
    const binding = scope.bindings.bindingOf(node.name, functions);
    if (binding?.kind === 'variable' && binding.constant && binding.init) return eraWhenTrue(binding.init, binding.chain, scope, depth + 1);
  }
  return undefined;
}

/**
 * The functions the SDK calls with the request context: those handed to serveStdio,
 * createMcpHandler or legacyStatelessFallback (written there, or named), or declared as an
 * McpServerFactory.
 */
export function serverFactories(index: FileIndex, imports: Imports): Set<FunctionNode> {
  const found = new Set<FunctionNode>();
  let named: Map<string, FunctionNode> | undefined;
  for (const { node } of index.calls) {
    if (!isFactoryEntry(node, imports)) continue;
    const factory = node.arguments[0] as Node | undefined;
    if (factory && isFunctionNode(factory)) found.add(factory);
    else if (factory?.type === 'Identifier') {
      const fn = (named ??= namedFunctions(index)).get(factory.name);
      if (fn) found.add(fn);
    }
  }
  for (const { node } of index.declarators) {
    const annotation = node.id.type === 'Identifier' ? annotatedType(node.id.typeAnnotation) : undefined;
    if (annotation && namesSdkType(annotation, 'McpServerFactory', imports) && node.init && isFunctionNode(node.init)) found.add(node.init);
  }
  return found;
}

/** `serveStdio(factory, ...)`, `createMcpHandler(factory, ...)`: a call of the SDK that builds servers with a factory. */
export function isFactoryEntry(call: CallExpression, imports: Imports): boolean {
  return call.callee.type === 'Identifier' && FACTORY_ENTRIES.has(sdkName(call.callee.name, imports) ?? '');
}

/** The name the SDK exports `local` under, when the file imports it from an SDK package. */
export function sdkName(local: string, imports: Imports): string | undefined {
  const imported = imports.get(local);
  return imported && SDK_PACKAGE.test(imported.from) ? imported.imported : undefined;
}

function eraName(value: string | undefined): ProtocolEra | undefined {
  return value === 'legacy' || value === 'modern' ? value : undefined;
}

function flipped(era: ProtocolEra | undefined): ProtocolEra | undefined {
  return era === undefined ? undefined : era === 'legacy' ? 'modern' : 'legacy';
}

function unwrapped(node: Node): Node {
  return node.type === 'TSNonNullExpression' ? unwrapped(node.expression) : node;
}

/** `reqCtx.era`, `era` destructured or copied from it, or a value typed as an era. */
function isEraValue(node: Node, functions: readonly FunctionNode[], scope: EraScope, depth: number): boolean {
  const value = unwrapped(node);
  if (value.type === 'MemberExpression' || value.type === 'OptionalMemberExpression') {
    const property = value.computed ? stringValue(value.property) : value.property.type === 'Identifier' ? value.property.name : undefined;
    return property === 'era' && isRequestContext(value.object, functions, scope, depth + 1);
  }
  if (value.type !== 'Identifier' || depth > 4) return false;
  const binding = scope.bindings.bindingOf(value.name, functions);
  if (!binding) return false;
  if (binding.kind === 'param') {
    if (binding.pattern) return binding.pattern.property === 'era' && contextParameter(binding.param, binding.fn, scope);
    return binding.annotation !== undefined && isEraType(binding.annotation, scope.imports);
  }
  if (binding.kind !== 'variable' || !binding.constant) return false;
  if (binding.annotation && isEraType(binding.annotation, scope.imports)) return true;
  if (binding.init) return isEraValue(binding.init, binding.chain, scope, depth + 1);
  const from = destructuredFrom(binding, value.name, scope.index);
  return from?.property === 'era' && isRequestContext(from.object, binding.chain, scope, depth + 1);
}

/** The request context a factory is given: its parameter (typed McpRequestContext, or the factory's first), or a const holding it. */
function isRequestContext(node: Node, functions: readonly FunctionNode[], scope: EraScope, depth: number): boolean {
  const value = unwrapped(node);
  if (value.type !== 'Identifier' || depth > 4) return false;
  const binding = scope.bindings.bindingOf(value.name, functions);
  if (binding?.kind === 'param') return !binding.pattern && binding.fallback === undefined && contextParameter(binding.param, binding.fn, scope);
  if (binding?.kind === 'variable' && binding.constant && binding.init) return isRequestContext(binding.init, binding.chain, scope, depth + 1);
  return false;
}

/** A parameter that holds the request context: typed McpRequestContext, or the first parameter of a server factory. */
function contextParameter(param: Node, fn: FunctionNode, scope: EraScope): boolean {
  const annotation = annotatedType((param as { typeAnnotation?: Node | null }).typeAnnotation);
  if (annotation) return namesSdkType(annotation, 'McpRequestContext', scope.imports);
  return scope.factories.has(fn) && fn.params[0] === param;
}

/** `ProtocolEra`, `McpRequestContext['era']`, or `'legacy' | 'modern'`. */
function isEraType(type: Node, imports: Imports): boolean {
  if (type.type === 'TSTypeReference') return namesSdkType(type, 'ProtocolEra', imports);
  if (type.type === 'TSIndexedAccessType')
    return namesSdkType(type.objectType, 'McpRequestContext', imports) && stringValue((type.indexType as { literal?: Node }).literal) === 'era';
  if (type.type !== 'TSUnionType') return false;
  const names = type.types.map((t) => (t.type === 'TSLiteralType' ? stringValue(t.literal as Node) : undefined));
  return names.length === 2 && names.includes('legacy') && names.includes('modern');
}

/** A reference to the SDK's type `name` (imported under any local name). */
function namesSdkType(type: Node, name: string, imports: Imports): boolean {
  return type.type === 'TSTypeReference' && type.typeName.type === 'Identifier' && sdkName(type.typeName.name, imports) === name;
}

/** `const { era } = reqCtx`: the property a destructured const takes, and from what. */
function destructuredFrom(binding: Extract<Binding, { kind: 'variable' }>, name: string, index: FileIndex): { property: string; object: Node } | undefined {
  const declarator = index.declarators.find((d) => d.node.id === binding.id);
  if (!declarator?.node.init || binding.id.type !== 'ObjectPattern') return undefined;
  for (const p of binding.id.properties) {
    if (p.type !== 'ObjectProperty' || p.computed || p.key.type !== 'Identifier') continue;
    if (p.value.type === 'Identifier' && p.value.name === name) return { property: p.key.name, object: declarator.node.init };
  }
  return undefined;
}

function isFunctionNode(node: Node): node is FunctionNode {
  return node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression';
}
