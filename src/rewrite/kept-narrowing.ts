// A question inside `if (cond)` makes the retry enter that branch through its step:
// `if (mrtr.step === 'ok' || cond)`. TypeScript no longer narrows what `cond` checked inside the
// branch (`if (input.path)` made `input.path` a string there), so the branch's reads of a name or
// a property `cond` shows is there are asserted (`input.path!`): the step is only resumed in a
// call that took the branch, with the same arguments. Only in TypeScript, and never for a name
// the branch assigns.
import { parseExpression } from '@babel/parser';
import type { Node } from '@babel/types';
import { walk } from '../analyse/ast.ts';

const HEAD = 'async () => ';

/** `body` (a rewritten handler's block) with the reads narrowed by a resumed branch's condition asserted. */
export function keptNarrowing(body: string, stepVar: string): string {
  // Most bodies resume no branch of an if: they are not parsed again.
  if (!body.includes(`(${stepVar} === `) || !body.includes(' || ')) return body;
  let arrow: Node;
  try {
    arrow = parseExpression(`${HEAD}${body}`, { plugins: ['typescript'] });
  } catch {
    return body;
  }
  const text = (n: Node) => body.slice(n.start! - HEAD.length, n.end! - HEAD.length);
  const inserts = new Map<number, string>();
  walk(arrow, (node) => {
    if (node.type !== 'IfStatement' || node.test.type !== 'LogicalExpression' || node.test.operator !== '||') return undefined;
    if (!resumedSteps(node.test.left, stepVar, text)) return undefined;
    const shown = new Set(
      checkedPresent(node.test.right, text)
        .filter((e) => !assignedIn(node.consequent, rootOf(e), text))
        .map(text),
    );
    if (shown.size > 0) for (const [at, insert] of readsOf(node.consequent, shown, text)) inserts.set(at - HEAD.length, insert);
    return undefined;
  });
  let out = body;
  for (const [at, insert] of [...inserts].sort((a, b) => b[0] - a[0])) out = `${out.slice(0, at)}${insert}${out.slice(at)}`;
  return out;
}

/** Whether `test` is `step === 'a' || step === 'b' ...`. */
function resumedSteps(test: Node, stepVar: string, text: (n: Node) => string): boolean {
  if (test.type === 'LogicalExpression' && test.operator === '||') return resumedSteps(test.left, stepVar, text) && resumedSteps(test.right, stepVar, text);
  return test.type === 'BinaryExpression' && test.operator === '===' && text(test.left) === stepVar && test.right.type === 'StringLiteral';
}

/** The names and property reads `cond` shows are there when true (`x`, `a.b`, `x !== undefined`, joined by `&&`). */
function checkedPresent(cond: Node, text: (n: Node) => string): Node[] {
  if (cond.type === 'LogicalExpression' && cond.operator === '&&') return [...checkedPresent(cond.left, text), ...checkedPresent(cond.right, text)];
  if (cond.type === 'BinaryExpression' && (cond.operator === '!==' || cond.operator === '!=')) {
    const absent = (n: Node) => n.type === 'NullLiteral' || (n.type === 'Identifier' && n.name === 'undefined');
    const other = absent(cond.right) ? cond.left : absent(cond.left) ? cond.right : undefined;
    return other && plainPath(other) ? [other] : [];
  }
  return plainPath(cond) ? [cond] : [];
}

/** A name, or a chain of plain property reads on one (`input.options.path`). */
function plainPath(node: Node): boolean {
  if (node.type === 'Identifier') return node.name !== 'undefined';
  return node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' && plainPath(node.object);
}

function rootOf(node: Node): Node {
  return node.type === 'MemberExpression' ? rootOf(node.object) : node;
}

/** Whether `within` assigns the name `root` (or updates it). */
function assignedIn(within: Node, root: Node, text: (n: Node) => string): boolean {
  const name = text(root);
  let assigned = false;
  walk(within, (node) => {
    const target = node.type === 'AssignmentExpression' ? node.left : node.type === 'UpdateExpression' ? node.argument : undefined;
    if (target && text(rootOf(target)) === name) assigned = true;
    return assigned ? false : undefined;
  });
  return assigned;
}

/** Where each read of one of `shown` under `within` ends, and what asserts it there (`!`, or `: x!` after a shorthand `{ x }`). */
function readsOf(within: Node, shown: ReadonlySet<string>, text: (n: Node) => string): Map<number, string> {
  const asserted = new Map<number, string>();
  walk(within, (node, parents) => {
    const parent = parents[parents.length - 1];
    if (node.type === 'ObjectProperty' && node.shorthand && node.value.type === 'Identifier' && shown.has(node.value.name)) {
      asserted.set(node.end!, `: ${node.value.name}!`);
      return false;
    }
    if ((node.type !== 'Identifier' && node.type !== 'MemberExpression') || !shown.has(text(node))) return undefined;
    if (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed) return false;
    if (parent?.type === 'ObjectProperty' && parent.key === node && !parent.computed) return false;
    if (parent?.type === 'TSNonNullExpression' || (parent?.type === 'UnaryExpression' && parent.operator === 'typeof')) return false;
    asserted.set(node.end!, '!');
    return false;
  });
  return asserted;
}
