// What the plan and the rewrite both need to know of capability reads: which call reads the
// connection's capabilities, and the parameter a split helper takes the request's context in.
import type { Node } from '@babel/types';
import { memberPath, type FunctionNode } from './ast.ts';

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

/** A split helper's request half's context parameter: `mrtrCtx`, or `mrtrCtx?` where a legacy entry leaves it out (plan/legacy-entry.ts). */
export function requestContextOf(fn: FunctionNode): string | undefined {
  for (const p of fn.params) {
    const id = p.type === 'AssignmentPattern' ? p.left : p;
    if (id.type === 'Identifier' && id.name === REQUEST_CONTEXT) return p.type === 'AssignmentPattern' || id.optional ? `${REQUEST_CONTEXT}?` : REQUEST_CONTEXT;
  }
  return undefined;
}
