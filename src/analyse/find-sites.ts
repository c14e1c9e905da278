// Finds legacy server→client requests: calls matching the push surface in sdk-surface.ts.
import type { CallExpression, Node } from '@babel/types';
import { isFunction, memberPath, propertyOf, stringValue, walk, type FunctionNode } from './ast.ts';
import { LEGACY_CALLS, REQUEST_METHODS, type LegacyCallShape } from './sdk-surface.ts';
import type { InputKind } from '../plan/types.ts';

export interface LegacySite {
  call: CallExpression;
  shape: LegacyCallShape;
  /** The identifier the receiver starts with (`ctx` in `ctx.mcpReq.elicitInput`). */
  receiverHead: string;
  /** Known when the call names its request statically. */
  kind?: InputKind;
  /** The request's params expression, when there is one. */
  params?: Node;
  /** Innermost enclosing function, if any. */
  enclosing?: FunctionNode;
  /** Every enclosing function, innermost last. */
  functions: FunctionNode[];
  /** Ancestors of the call, outermost first (for statement-shape checks). */
  ancestors: Node[];
  /** The receiver expression (`server.server` in `server.server.createMessage(...)`). */
  receiver: Node;
  /**
   * Set when only the method name says it is an MCP request (`x.server.createMessage` where
   * `x` is not known to be an McpServer): the type checker decides, when there is one.
   */
  uncertain?: boolean;
  /**
   * Set on a call to a split helper (see plan/split-helper.ts): the call stands for the
   * request the helper made. `result` wraps the answer into what the helper returned.
   */
  via?: { helper: string; requestText: string; result: [before: string, after: string]; valueType?: string; args: Node[] };
}

export function findLegacySites(program: Node, serverNames: ReadonlySet<string> = new Set()): LegacySite[] {
  const sites: LegacySite[] = [];
  walk(program, (node, parents) => {
    if (node.type !== 'CallExpression') return;
    const matched = matchLegacyCall(node);
    if (!matched) return;
    const functions = parents.filter(isFunction) as FunctionNode[];
    const receiver = (node.callee as Extract<Node, { type: 'MemberExpression' }>).object;
    const known = matched.shape.receiver !== '*.server' || (receiver.type === 'MemberExpression' && receiver.object.type === 'Identifier' && serverNames.has(receiver.object.name));
    sites.push({ ...matched, call: node, receiver, functions, enclosing: functions[functions.length - 1], ancestors: [...parents], ...(known ? {} : { uncertain: true }) });
  });
  return sites;
}

function matchLegacyCall(call: CallExpression): Omit<LegacySite, 'call' | 'functions' | 'enclosing' | 'ancestors' | 'receiver'> | undefined {
  const callee = call.callee;
  if ((callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') || callee.computed) return undefined;
  if (callee.property.type !== 'Identifier') return undefined;
  const method = callee.property.name;
  const receiver = memberPath(callee.object);
  if (receiver === undefined) return undefined;
  const parts = receiver.split('.');
  for (const shape of LEGACY_CALLS) {
    if (shape.method !== method) continue;
    const receiverMatches =
      shape.receiver === 'ctx.mcpReq'
        ? parts.length === 2 && parts[1] === 'mcpReq'
        : shape.receiver === 'ctx'
          ? parts.length === 1
          : parts.length >= 2 && parts[parts.length - 1] === 'server';
    if (!receiverMatches) continue;
    const first = call.arguments[0] as Node | undefined;
    if (shape.kind !== 'by-method') {
      const kind =
        shape.kind === 'elicit' && first && stringValue(propertyOf(first, 'mode')) === 'url' ? 'elicitUrl' : shape.kind;
      return { shape, receiverHead: parts[0]!, kind, params: shape.kind === 'roots' ? undefined : first };
    }
    // `send({ method, params })`: the request names its kind. A request we cannot read
    // statically is still reported (it may well be an elicitation), but never rewritten.
    if (first && first.type === 'ObjectExpression') {
      const requestMethod = stringValue(propertyOf(first, 'method'));
      if (requestMethod === undefined) return { shape, receiverHead: parts[0]! };
      const kind = REQUEST_METHODS[requestMethod];
      if (!kind) return undefined; // some other request (ping, a custom method): not ours
      return { shape, receiverHead: parts[0]!, kind, params: propertyOf(first, 'params') };
    }
    // `sendRequest(x)` on an arbitrary identifier is too generic to flag without types.
    if (shape.receiver === 'ctx') return undefined;
    return { shape, receiverHead: parts[0]! };
  }
  return undefined;
}

/** `throw new UrlElicitationRequiredError([{ mode: 'url', ... }, ...])`: the 2025 way to send a user to a URL. */
export interface UrlElicitationThrow {
  statement: Node;
  /** The elicitation objects, when the array is written out. */
  elicitations?: Node[];
  functions: FunctionNode[];
  ancestors: Node[];
}

export function findUrlElicitationThrows(program: Node): UrlElicitationThrow[] {
  const found: UrlElicitationThrow[] = [];
  walk(program, (node, parents) => {
    if (node.type !== 'ThrowStatement') return;
    const error = node.argument;
    if (error.type !== 'NewExpression' || error.callee.type !== 'Identifier' || error.callee.name !== 'UrlElicitationRequiredError') return;
    const list = error.arguments[0];
    const elicitations = list?.type === 'ArrayExpression' && list.elements.every((e) => e?.type === 'ObjectExpression') ? (list.elements as Node[]) : undefined;
    found.push({ statement: node, elicitations, functions: parents.filter(isFunction) as FunctionNode[], ancestors: [...parents] });
  });
  return found;
}
