// Whether the value a local holds at a question is ever read after it: a local the code after
// the question assigns before reading it, on every path, need not travel (`let x: T;` before,
// `x = answer.value;` after). Judged statement by statement in the order they run; where that
// order is not plain (a loop runs again, a switch case falls through, a throw may reach a
// catch or finally that names the local, a function made before the question may read it when
// called), the value is taken as read.
import type { Statement } from '@babel/types';
import { isFunction, referencedNames, someNode } from '../analyse/ast.ts';
import type { Round } from './handler-rounds.ts';

/** What a statement does first with a local on the paths through it: `none` when some go on without a word of it. */
type FirstUse = 'assigned' | 'read' | 'none';

/**
 * Whether the code after the round assigns `name` before any read of it, on every path. (A
 * helper's question is a round without a binding: helper-locals.ts.)
 */
export function assignedBeforeRead(round: Pick<Round, 'frames' | 'statement' | 'inline'> & { binding?: Round['binding'] }, name: string): boolean {
  const { binding, frames } = round;
  if (binding?.form === 'assign' && binding.name === name && !round.inline) return true;
  if (round.inline && referencedNames(round.statement).has(name)) return false;
  // A function made before the question may read the old value when called after it (one made after is read in order below).
  const before = frames.flatMap((f, k) => f.list.slice(0, k === frames.length - 1 ? f.index + 1 : f.index));
  if (before.some((s) => someNode(s, (n) => isFunction(n) && referencedNames(n).has(name)))) return false;
  for (const { compound } of frames) {
    if (compound?.type !== 'TryStatement') continue;
    const handlers = [compound.handler?.body, compound.finalizer].filter((b) => b != null);
    if (handlers.some((b) => referencedNames(b).has(name))) return false;
  }
  for (let k = frames.length - 1; k >= 0; k--) {
    const use = sequence(frames[k]!.list.slice(frames[k]!.index + 1), name);
    if (use !== 'none') return use === 'assigned';
    // The list is done: what runs next is the rest of the enclosing list, where the compound is a block, an if or a try.
    const enclosing = frames[k - 1]?.compound?.type;
    if (k > 0 && enclosing !== 'BlockStatement' && enclosing !== 'IfStatement' && enclosing !== 'TryStatement') return false;
  }
  return false;
}

function sequence(statements: readonly Statement[], name: string): FirstUse {
  for (const s of statements) {
    const use = firstUse(s, name);
    if (use !== 'none') return use;
  }
  return 'none';
}

function firstUse(s: Statement, name: string): FirstUse {
  if (s.type === 'ExpressionStatement' && s.expression.type === 'AssignmentExpression' && s.expression.operator === '=') {
    const { left, right } = s.expression;
    if (left.type === 'Identifier' && left.name === name) return referencedNames(right).has(name) ? 'read' : 'assigned';
  }
  if (s.type === 'BlockStatement') return sequence(s.body, name);
  if (s.type === 'IfStatement') {
    if (referencedNames(s.test).has(name)) return 'read';
    const branches = [firstUse(s.consequent, name), s.alternate ? firstUse(s.alternate, name) : 'none'];
    if (branches.includes('read')) return 'read';
    // A path that assigned it is done with the old value; one that said nothing goes on to the next statement.
    return branches.every((b) => b === 'assigned') ? 'assigned' : 'none';
  }
  if (referencedNames(s).has(name) || s.type === 'BreakStatement' || s.type === 'ContinueStatement') return 'read';
  // The path ends without reading it (a throw that a catch could take is judged by the caller).
  return s.type === 'ReturnStatement' || s.type === 'ThrowStatement' ? 'assigned' : 'none';
}
