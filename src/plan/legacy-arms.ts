// The arms of a dual-era handler: an `if` on the protocol era (see analyse/era-tests.ts) whose
// 2025 side pushes requests and whose 2026-07-28 side answers with inputRequired itself. Three
// layouts, as real handlers write them:
//   if (legacy) { ...; return } <modern code>       the legacy arm returns early ('legacy-first')
//   if (legacy) { ... } else { <modern code> }      either way round, or an else-if ('both')
//   if (modern) { ...; return } <legacy code>       the modern arm returns early ('modern-first')
// Deleting the legacy side leaves the modern code, which the SDK's shim also serves to 2025
// clients: each inputRequired round becomes a real server→client request.
import type { IfStatement, Node, Statement } from '@babel/types';
import { isFunction, isSideEffect, someNode, walk, type FunctionNode } from '../analyse/ast.ts';
import { eraWhenTrue, sdkName, type EraScope } from '../analyse/era-tests.ts';
import { REQUEST_METHODS } from '../analyse/sdk-surface.ts';
import { alwaysExits } from './body-tree.ts';
import type { InputKind, Span } from '../core/vocabulary.ts';
import type { ArmLayout } from '../rewrite/edits/legacy-arm.ts';

export interface LegacyArm extends ArmLayout {
  /** What goes with the legacy side: its branch, or (modern-first) the statements after the if. */
  legacy: Span[];
  /** The kinds of input the modern side asks with inputRequired, and whether it returns inputRequired(...) itself. */
  answers: { kinds: Set<InputKind>; returns: boolean };
  /** The first statement run before the era test that may do something, when there is one. */
  effectBefore?: Node;
}

/** The era `if`s of a handler's body (not of functions nested in it), each as an arm. */
export function legacyArms(fn: FunctionNode, functions: readonly FunctionNode[], scope: EraScope): LegacyArm[] {
  if (fn.body.type !== 'BlockStatement') return [];
  const body = fn.body;
  const found: Array<{ arm: LegacyArm; before: Node[] }> = [];
  walk(body, (node, parents) => {
    if (node !== body && isFunction(node)) return false;
    if (node.type !== 'IfStatement') return undefined;
    const era = eraWhenTrue(node.test, functions, scope);
    const path = parents.slice(parents.indexOf(body));
    const before = era && codeBefore(node, path);
    const arm = before && before !== 'unsupported' ? armOf(node, era, path, scope) : undefined;
    if (arm) found.push({ arm, before: before as Node[] });
    return undefined;
  });
  for (const { arm, before } of found) {
    // An earlier arm runs its modern side (if any) before this one; its legacy side goes.
    const run = before.flatMap((n) => {
      const earlier = found.find((f) => f.arm.statement === n)?.arm;
      return !earlier ? [n] : earlier.layout === 'both' && earlier.kept ? [earlier.kept] : [];
    });
    arm.effectBefore = run.find((n) => someNode(n, isSideEffect, isFunction));
  }
  return found.map((f) => f.arm);
}

function armOf(statement: IfStatement, era: 'legacy' | 'modern', path: readonly Node[], scope: EraScope): LegacyArm | undefined {
  const parent = path[path.length - 1]!;
  const within: LegacyArm['within'] =
    parent.type === 'BlockStatement' ? { block: parent.body } : parent.type === 'IfStatement' && parent.alternate === statement ? { elseOf: parent } : 'other';
  const legacyBranch = era === 'legacy' ? statement.consequent : statement.alternate;
  const modernBranch = era === 'legacy' ? statement.alternate : statement.consequent;
  const base = { statement, within } as const;
  if (legacyBranch && modernBranch) {
    return { ...base, layout: 'both', legacy: [spanOf(legacyBranch)], kept: modernBranch, dropped: [], answers: answersIn([modernBranch], scope) };
  }
  if (legacyBranch) {
    if (!alwaysExits(legacyBranch)) return undefined;
    return { ...base, layout: 'legacy-first', legacy: [spanOf(legacyBranch)], dropped: [], answers: answersIn(after(statement, path), scope) };
  }
  // The modern arm returns early and the rest of the handler is the legacy arm: only at the top of its body.
  if (!modernBranch || path.length !== 1 || !alwaysExits(modernBranch) || within === 'other' || !('block' in within)) return undefined;
  const dropped = within.block.slice(within.block.indexOf(statement) + 1);
  if (dropped.length === 0) return undefined;
  const legacy = [{ start: dropped[0]!.start!, end: dropped[dropped.length - 1]!.end! }];
  return { ...base, layout: 'modern-first', legacy, kept: modernBranch, dropped, answers: answersIn([modernBranch], scope) };
}

/**
 * What runs on the way to the if, from the top of the handler: the statements before it in
 * each block around it, the tests of the ifs it is in, the finally of a try it is in;
 * 'unsupported' inside a loop, a switch or a catch (run more than once, or not at all).
 */
function codeBefore(statement: Node, path: readonly Node[]): Node[] | 'unsupported' {
  const found: Node[] = [];
  for (let i = path.length - 1; i >= 0; i--) {
    const parent = path[i]!;
    const child = path[i + 1] ?? statement;
    if (parent.type === 'BlockStatement') found.push(...parent.body.slice(0, parent.body.indexOf(child as Statement)));
    else if (parent.type === 'IfStatement') found.push(parent.test);
    // A finally runs on every round too: it counts as code around the test.
    else if (parent.type === 'TryStatement' && parent.block === child) found.push(...(parent.finalizer ? [parent.finalizer] : []));
    else return 'unsupported';
  }
  return found;
}

/** The statements after the if, in its block and in each block around it, up to the handler's body. */
function after(statement: Node, path: readonly Node[]): Node[] {
  const found: Node[] = [];
  for (let i = path.length - 1; i >= 0; i--) {
    const parent = path[i]!;
    const child = path[i + 1] ?? statement;
    if (parent.type === 'BlockStatement') found.push(...parent.body.slice(parent.body.indexOf(child as Statement) + 1));
  }
  return found;
}

/**
 * The input `nodes` ask for with the SDK's builders (`inputRequired.elicit(...)`, or a request
 * written out, `{ method: 'sampling/createMessage', params }`), and whether they return
 * `inputRequired(...)` from the handler itself (not from a function nested in it).
 */
function answersIn(nodes: readonly Node[], scope: EraScope): LegacyArm['answers'] {
  const kinds = new Set<InputKind>();
  let returns = false;
  const isBuilder = (n: Node) => n.type === 'Identifier' && sdkName(n.name, scope.imports) === 'inputRequired';
  for (const node of nodes) {
    walk(node, (n, parents) => {
      if (n.type === 'CallExpression' && n.callee.type === 'MemberExpression' && isBuilder(n.callee.object) && n.callee.property.type === 'Identifier') {
        const kind = BUILDER_KINDS[n.callee.property.name];
        if (kind) kinds.add(kind);
      }
      if (n.type === 'ObjectExpression') {
        const kind = writtenRequest(n);
        if (kind) kinds.add(kind);
      }
      if (n.type === 'ReturnStatement' && n.argument && !parents.some(isFunction)) {
        const value = n.argument.type === 'AwaitExpression' ? n.argument.argument : n.argument;
        if (value.type === 'CallExpression' && isBuilder(value.callee)) returns = true;
      }
    });
  }
  return { kinds, returns };
}

const BUILDER_KINDS: Readonly<Record<string, InputKind>> = { elicit: 'elicit', elicitUrl: 'elicitUrl', createMessage: 'sampling', listRoots: 'roots' };

/** `{ method: 'elicitation/create', params: { mode: 'url', ... } }`: the kind of an input request written out. */
function writtenRequest(object: Extract<Node, { type: 'ObjectExpression' }>): InputKind | undefined {
  let method: string | undefined;
  let mode: string | undefined;
  for (const p of object.properties) {
    if (p.type !== 'ObjectProperty' || p.computed || p.key.type !== 'Identifier') continue;
    if (p.key.name === 'method' && p.value.type === 'StringLiteral') method = p.value.value;
    if (p.key.name === 'params' && p.value.type === 'ObjectExpression')
      for (const q of p.value.properties)
        if (q.type === 'ObjectProperty' && q.key.type === 'Identifier' && q.key.name === 'mode' && q.value.type === 'StringLiteral') mode = q.value.value;
  }
  const kind = method ? REQUEST_METHODS[method] : undefined;
  return kind === 'elicit' && mode === 'url' ? 'elicitUrl' : kind;
}

function spanOf(node: Node): Span {
  return { start: node.start!, end: node.end! };
}
