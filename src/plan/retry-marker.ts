// A one-shot retry marker around a thrown URL elicitation: how a 2025 handler told the call a
// client re-sent after the user's visit from the first one.
//
//   if (issued.has(key)) issued.delete(key);                 // the re-sent call: go on
//   else { issued.add(key); throw new UrlElicitationRequiredError([...]); }
//
// In 2025 the client re-sends the whole call once the user is done, so the handler runs again
// from the top: the marker sends the retry past the throw and is cleared there. Resuming after
// the throw instead (as a question of the handler) would skip that branch and leave the key in
// the collection, so a later identical call would skip its prerequisite. So such a throw is
// returned as input requests without state: the retry (2026-07-28, or the shim's re-entry on
// 2025) runs the handler from the top as the 2025 retry did, and every line before the throw,
// the marker's add, has and delete included, runs as often as it did. That retry cannot ask
// again forever (the problem of a re-run whose path does not change) when it is proven to take
// the other branch: the collection is a module-level `const` Set or Map (it outlives the call
// and every server instance of the process), the throw's branch records the key before it, and
// the key is derived only from what the retry sends again (its arguments, its session, constants).
import type { Node, Statement } from '@babel/types';
import type { FunctionNode } from '../analyse/ast.ts';
import type { Declarations } from '../analyse/file-index.ts';
import type { UrlElicitationThrow } from '../analyse/find-sites.ts';
import { codeSnippet } from '../core/escape.ts';
import { refuse, type Refusal } from './refusal.ts';

/** The marker found: the collection, and the statement recording the key. */
export interface RetryMarker {
  collection: string;
  record: Statement;
}

/** What `planUrlThrow` needs to prove a marker: the file's consts and the handler's parameters. */
export interface MarkerScope {
  source: string;
  declarations: Declarations;
  fn: FunctionNode;
  ctxIndex: number;
}

/**
 * The one-shot marker guarding `t`: undefined when none guards it, a refusal when one does but
 * the retry cannot be shown to take the other branch (the marker names the statement).
 */
export function retryMarker(t: UrlElicitationThrow, scope: MarkerScope): RetryMarker | Refusal | undefined {
  const chain = [...t.ancestors, t.statement];
  for (let i = chain.indexOf(scope.fn.body as Node); i >= 0 && i < chain.length - 1; i++) {
    const guard = chain[i]!;
    if (guard.type !== 'IfStatement') continue;
    const test = hasCall(guard.test);
    if (!test || chain[i + 1] !== (test.negated ? guard.consequent : guard.alternate)) continue;
    const record = recordBefore(chain.slice(i + 1), test, scope.source);
    if (!record) continue;
    const why = unproven(test, record.method, chain.slice(i + 1), scope);
    const { line } = record.statement.loc!.start;
    if (why)
      return refuse('url-elicitation', 'retryMarkerUnproven', {
        line: String(line),
        record: codeSnippet(scope.source.slice(record.statement.start!, record.statement.end!)),
        why,
      });
    return { collection: test.collection, record: record.statement };
  }
  return undefined;
}

interface HasCall {
  collection: string;
  key: Node;
  negated: boolean;
}

/** `M.has(K)` or `!M.has(K)`. */
function hasCall(test: Node): HasCall | undefined {
  const negated = test.type === 'UnaryExpression' && test.operator === '!';
  const call = negated ? test.argument : test;
  if (call.type !== 'CallExpression' || call.arguments.length !== 1 || call.callee.type !== 'MemberExpression' || call.callee.computed) return undefined;
  const { object, property } = call.callee;
  if (object.type !== 'Identifier' || property.type !== 'Identifier' || property.name !== 'has') return undefined;
  return { collection: object.name, key: call.arguments[0]!, negated };
}

/** `M.add(K)` or `M.set(K, v)`, a statement of a block on the way to the throw, before it. */
function recordBefore(path: readonly Node[], test: HasCall, source: string): { statement: Statement; method: string } | undefined {
  const key = source.slice(test.key.start!, test.key.end!);
  for (let i = 0; i < path.length - 1; i++) {
    const block = path[i]!;
    if (block.type !== 'BlockStatement') continue;
    const before = block.body.slice(0, block.body.indexOf(path[i + 1] as Statement));
    for (const statement of before) {
      const call = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
      if (call?.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || call.callee.computed) continue;
      const { object, property } = call.callee;
      if (object.type !== 'Identifier' || object.name !== test.collection || property.type !== 'Identifier') continue;
      const first = call.arguments[0];
      if ((property.name === 'add' || property.name === 'set') && first && source.slice(first.start!, first.end!) === key)
        return { statement, method: property.name };
    }
  }
  return undefined;
}

/** Why the retry may not take the other branch; undefined when it must. */
function unproven(test: HasCall, method: string, path: readonly Node[], scope: MarkerScope): string | undefined {
  const { declarations, fn } = scope;
  const declared = declarations(test.collection, []);
  const init = declared?.init;
  const kind = init?.type === 'NewExpression' && init.callee.type === 'Identifier' ? init.callee.name : undefined;
  if (!declared || declarations(test.collection, functionsOf(path, fn)) !== declared || (kind !== 'Set' && kind !== 'Map'))
    return `\`${test.collection}\` is not a module-level const Set or Map, so the retry may not find the key`;
  if ((kind === 'Set') !== (method === 'add')) return `\`${test.collection}\` is a ${kind}, recorded with ${method}`;
  if (!stableOnRetry(test.key, scope, 0)) return 'its key is not derived only from what the retry sends again (arguments, session, constants)';
  return undefined;
}

/** The functions around the throw from the handler in: where a name of its path is looked up. */
function functionsOf(path: readonly Node[], fn: FunctionNode): FunctionNode[] {
  return [fn, ...(path.filter((n) => n.type.includes('Function')) as FunctionNode[])];
}

/** Whether `expr` has the same value when the retry runs the handler again: derived from the arguments, the session and constants. */
function stableOnRetry(expr: Node, scope: MarkerScope, depth: number): boolean {
  if (depth > 20) return false;
  const again = (n: Node) => stableOnRetry(n, scope, depth + 1);
  switch (expr.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
      return true;
    case 'TemplateLiteral':
      return expr.expressions.every(again);
    case 'BinaryExpression':
    case 'LogicalExpression':
      return again(expr.left) && again(expr.right);
    case 'ConditionalExpression':
      return again(expr.test) && again(expr.consequent) && again(expr.alternate);
    case 'UnaryExpression':
      return expr.operator !== 'delete' && again(expr.argument);
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'ParenthesizedExpression':
      return again(expr.expression);
    case 'MemberExpression': {
      if (expr.computed || expr.property.type !== 'Identifier') return false;
      // The session the retry comes on is the first call's.
      if (expr.object.type === 'Identifier' && expr.object.name === contextName(scope)) return expr.property.name === 'sessionId';
      return again(expr.object);
    }
    case 'Identifier':
      return stableName(expr.name, scope, depth);
    default:
      return false;
  }
}

/** An argument (re-sent), or a const initialised from what is stable. */
function stableName(name: string, scope: MarkerScope, depth: number): boolean {
  const { fn } = scope;
  if (name === 'undefined') return true;
  const args = scope.ctxIndex > 0 ? fn.params[0] : undefined;
  if (args && args.type !== 'TSParameterProperty' && paramNames(args).includes(name)) return true;
  const declared = scope.declarations(name, [fn]);
  if (!declared) return false;
  if (declared.from) return stableOnRetry(declared.from.object, scope, depth + 1);
  return declared.init ? stableOnRetry(declared.init, scope, depth + 1) : false;
}

function paramNames(param: Node): string[] {
  if (param.type === 'Identifier') return [param.name];
  if (param.type === 'ObjectPattern')
    return param.properties.flatMap((p) => (p.type === 'ObjectProperty' && p.value.type === 'Identifier' ? [p.value.name] : []));
  if (param.type === 'AssignmentPattern') return paramNames(param.left);
  return [];
}

function contextName(scope: MarkerScope): string | undefined {
  const ctx = scope.fn.params[scope.ctxIndex];
  return ctx?.type === 'Identifier' ? ctx.name : undefined;
}
