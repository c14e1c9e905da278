// Which server→client request a request object, or the schema sent with it, names: read from
// its `method` (a string, a const, a template of them), from the SDK's schema it is built with
// (`ElicitRequestSchema.parse({...})`), or from the result schema it is sent with
// (`sendRequest(request, CreateMessageResultSchema)`), however the request itself is held.
import type { Node } from '@babel/types';
import { propertyOf, type FunctionNode } from './ast.ts';
import { staticString } from './call-target.ts';
import type { Declarations } from './file-index.ts';
import type { HeldObjects } from './held-objects.ts';
import { REQUEST_METHODS, REQUEST_SCHEMAS } from './sdk-surface.ts';

/** Where names are looked up: the file's consts, from the functions around the call. */
export interface Scope {
  declarations: Declarations;
  functions: readonly FunctionNode[];
  /** The object literals names hold (see held-objects.ts), where a request's params may be followed. */
  held?: HeldObjects;
}

/** The legacy method a schema of the SDK is for, by its name (`ElicitResultSchema`, `types.ListRootsRequestSchema`). */
export function schemaMethod(node: Node | undefined): string | undefined {
  const name =
    node?.type === 'Identifier'
      ? node.name
      : node?.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier'
        ? node.property.name
        : undefined;
  return name !== undefined && Object.hasOwn(REQUEST_SCHEMAS, name) ? REQUEST_SCHEMAS[name] : undefined;
}

/**
 * The legacy method a request names: an object `{ method: 'roots/list', ... }` (written there
 * or in a const), one built by the SDK's schema of the request (`ListRootsRequestSchema.parse(...)`),
 * or a call building one with the method among its arguments (`createRequest(id, 'roots/list', {})`).
 */
export function requestMethodOf(request: Node | undefined, scope: Scope): string | undefined {
  if (request?.type === 'Identifier') request = scope.declarations(request.name, scope.functions)?.init ?? undefined;
  while (request && (request.type === 'TSAsExpression' || request.type === 'TSSatisfiesExpression' || request.type === 'AwaitExpression'))
    request = request.type === 'AwaitExpression' ? request.argument : request.expression;
  if (request?.type === 'ObjectExpression') return legacyMethod(propertyOf(request, 'method'), scope);
  if (request?.type !== 'CallExpression') return undefined;
  const callee = request.callee;
  if (callee.type === 'MemberExpression' && schemaMethod(callee.object)) return schemaMethod(callee.object);
  for (const argument of request.arguments) {
    const named = argument.type === 'ObjectExpression' ? legacyMethod(propertyOf(argument, 'method'), scope) : legacyMethod(argument as Node, scope);
    if (named) return named;
  }
  return undefined;
}

/** A string read statically that is one of the legacy request methods. */
function legacyMethod(node: Node | undefined, scope: Scope): string | undefined {
  const value = node ? staticString(node, scope.declarations, scope.functions) : undefined;
  return value !== undefined && Object.hasOwn(REQUEST_METHODS, value) ? value : undefined;
}
