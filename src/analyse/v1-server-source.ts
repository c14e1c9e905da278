// Where a module may take a v1 server, or a v1 handler's context, from: the v1 SDK has no MRTR,
// so a request asked on such a server or context stays as it is (`legacy-sdk`). Decided by what
// the module imports of the v1 SDK, not by whether it imports it at all: types, schemas and
// utilities (`CallToolResultSchema`, `ErrorCode`, `toJsonSchemaCompat`, its package.json) hold no
// server, and a module importing only those registers on its v2 server all the same.
import type { Node } from '@babel/types';
import type { FileIndex } from './file-index.ts';

/** The v1 SDK package. */
export const V1_PACKAGE = '@modelcontextprotocol/sdk';

/** The v1 SDK or a module of it. */
export function isV1Specifier(specifier: string): boolean {
  return specifier === V1_PACKAGE || specifier.startsWith(`${V1_PACKAGE}/`);
}

/** The v1 names a server, or a handler's context, is declared with. */
const V1_SERVER_NAMES: ReadonlySet<string> = new Set([
  'McpServer',
  'Server',
  'Protocol',
  'RequestHandlerExtra',
  'ServerOptions',
  'ToolCallback',
  'ReadResourceCallback',
  'ReadResourceTemplateCallback',
  'PromptCallback',
  'RegisteredTool',
  'RegisteredPrompt',
  'RegisteredResource',
  'RegisteredResourceTemplate',
  'ResourceTemplate',
]);

/** A name taken from a module: the export's own name, `*` for the whole module, `default`. */
export interface TakenName {
  from: string;
  imported: string;
}

/**
 * The v1 modules that export a server class, a context type or the protocol (and the package's
 * own entry): a namespace or default import of one may hold a server.
 */
const V1_SERVER_MODULES = /^@modelcontextprotocol\/sdk(?:\/(?:server\/mcp|server\/index|server|shared\/protocol)(?:\.js)?)?$/;

/**
 * The v1 specifier the module may take a server or a handler's context from: an import (or
 * re-export) of a server class, a context type or the protocol, or the whole of a module that
 * exports one (a namespace or default import), or a `require` binding one of those; undefined
 * when it takes none (it may still import v1 types and utilities).
 */
export function v1ServerSource(imports: Iterable<TakenName>, index: FileIndex): string | undefined {
  for (const { from, imported } of [...imports, ...v1Requires(index)]) {
    if (!isV1Specifier(from)) continue;
    if (V1_SERVER_NAMES.has(imported) || ((imported === '*' || imported === 'default') && V1_SERVER_MODULES.test(from))) return from;
  }
  return undefined;
}

/**
 * What the module's `require` calls of the v1 SDK bind: the names a pattern takes
 * (`const { McpServer } = require(...)`) or a member read (`require(...).Server`), else the whole
 * module (`*`).
 */
function v1Requires(index: FileIndex): TakenName[] {
  const out: TakenName[] = [];
  for (const { node, ancestors } of index.calls) {
    const [arg] = node.arguments;
    if (node.callee.type !== 'Identifier' || node.callee.name !== 'require' || arg?.type !== 'StringLiteral' || !isV1Specifier(arg.value)) continue;
    const parent = ancestors.at(-1);
    const names =
      parent?.type === 'VariableDeclarator' && parent.init === node && parent.id.type === 'ObjectPattern'
        ? parent.id.properties.map(patternName)
        : parent?.type === 'MemberExpression' && parent.object === node && !parent.computed && parent.property.type === 'Identifier'
          ? [parent.property.name]
          : ['*'];
    for (const imported of names) out.push({ from: arg.value, imported });
  }
  return out;
}

/** The export a property of `const { ... } = require(...)` takes; `*` for a rest element or a computed key. */
function patternName(property: Node): string {
  return property.type === 'ObjectProperty' && !property.computed && property.key.type === 'Identifier' ? property.key.name : '*';
}
