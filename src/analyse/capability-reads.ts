// What the plan and the rewrite both need to know of capability reads: which call reads the
// connection's capabilities, and the parameter a split helper takes the request's context in.
import type { Node } from '@babel/types';
import { memberPath } from './ast.ts';

/**
 * The parameter a split helper's request half takes the handler's context in, when what it runs
 * before the question reads the client's capabilities (its reads are rewritten as a handler's).
 */
export const REQUEST_CONTEXT = 'mrtrCtx';

/** `server.getClientCapabilities()` or `?.()` (any receiver named like a server): the connection's client capabilities. */
export function isConnectionCapabilitiesRead(node: Node): boolean {
  if ((node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') || node.arguments.length > 0) return false;
  const callee = node.callee;
  if ((callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') || callee.computed) return false;
  if (callee.property.type !== 'Identifier' || callee.property.name !== 'getClientCapabilities') return false;
  const receiver = memberPath(callee.object);
  return receiver !== undefined && /server$/i.test(receiver.split('.').pop()!);
}
