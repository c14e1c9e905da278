// Which locals live across a suspension point. A local declared before the point and named
// anywhere after it must travel in requestState; names are matched without scope analysis,
// so a shadowing inner variable can only make us carry more, never less.
import type { Node, Statement } from '@babel/types';
import { boundNames, isFunction, referencedNames, walk } from '../analyse/ast.ts';

export interface Declared {
  name: string;
  /** Offset of the binding identifier (where type facts are asked). */
  start: number;
  mutable: boolean;
  /** What declared it: a variable (with its declarator), a function, a class or a catch clause. */
  via: 'variable' | 'function' | 'class' | 'caught';
  init?: Node | null;
  annotation?: Node | null;
  /** A destructured name: the value it is taken from (`args` of `const { id } = args`). */
  destructured?: Node | null;
  /** Where its declaration statement starts (a JSDoc comment right above it may type it). */
  declarationStart?: number;
}

/** Names a top-level statement of a handler body declares, including `var`s hoisted out of blocks. */
export function declaredBy(statement: Statement): Declared[] {
  const out: Declared[] = [];
  const fromDeclaration = (decl: Node, topLevel: boolean) => {
    if (decl.type === 'VariableDeclaration' && (topLevel || decl.kind === 'var')) {
      for (const d of decl.declarations) {
        for (const b of boundNames(d.id)) {
          out.push({
            name: b.name,
            start: b.start,
            mutable: decl.kind !== 'const',
            via: 'variable',
            init: d.id.type === 'Identifier' ? d.init : null,
            annotation: d.id.type === 'Identifier' ? ((d.id.typeAnnotation as Node | null | undefined) ?? null) : null,
            ...(d.id.type !== 'Identifier' ? { destructured: d.init } : {}),
            declarationStart: decl.start!,
          });
        }
      }
    } else if (topLevel && decl.type === 'FunctionDeclaration' && decl.id) {
      out.push({ name: decl.id.name, start: decl.id.start!, mutable: false, via: 'function' });
    } else if (topLevel && decl.type === 'ClassDeclaration' && decl.id) {
      out.push({ name: decl.id.name, start: decl.id.start!, mutable: false, via: 'class' });
    }
  };
  fromDeclaration(statement, true);
  // A function's own `var`s are its own, whether it is the statement or nested in it.
  if (statement.type !== 'VariableDeclaration' && !isFunction(statement)) {
    walk(statement, (node) => {
      if (isFunction(node)) return false;
      if (node !== statement && node.type === 'VariableDeclaration' && node.kind === 'var') fromDeclaration(node, false);
      return undefined;
    });
  }
  return out;
}

export function namesReadIn(statements: readonly Statement[]): Set<string> {
  const names = new Set<string>();
  for (const s of statements) for (const n of referencedNames(s)) names.add(n);
  return names;
}

/** Names assigned (`x = ...`, `x++`, destructuring assignment) anywhere in the statements. */
export function namesAssignedIn(statements: readonly Statement[]): Set<string> {
  return new Set(assignmentsIn(statements).map((a) => a.name));
}

/** Each assignment of a name in the statements, in source order, with the line it is on. */
export function assignmentsIn(statements: readonly Statement[]): { name: string; line: number }[] {
  const out: { name: string; line: number }[] = [];
  for (const s of statements) {
    walk(s, (node) => {
      const line = node.loc?.start.line ?? 0;
      if (node.type === 'AssignmentExpression') for (const b of boundNames(node.left as Node)) out.push({ name: b.name, line });
      if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier') out.push({ name: node.argument.name, line });
      return undefined;
    });
  }
  return out;
}

/** One list on the way to a question, and the index of the statement in it. */
interface StepOnTheWay {
  list: readonly Statement[];
  index: number;
}

/**
 * Whether the code after a question, in the order it runs, sets `name` (`name = …;`, a statement
 * of its own) before anything can read it: the value it had when the question was asked is then
 * dead, and a result half declares it without one. Only blocks and ifs may be on the way: a try's
 * catch or finally could read the old value after a throw.
 */
export function setBeforeRead(path: readonly StepOnTheWay[], name: string): boolean {
  if (path.slice(0, -1).some(({ list, index }) => list[index]!.type !== 'IfStatement' && list[index]!.type !== 'BlockStatement')) return false;
  for (let k = path.length - 1; k >= 0; k--) {
    const { list, index } = path[k]!;
    // The question's own statement runs again in the result half: it must not read the old value either.
    for (const s of list.slice(k === path.length - 1 ? index : index + 1)) {
      if (setsAlone(s, name)) return true;
      if (referencedNames(s).has(name)) return false;
    }
  }
  return false;
}

/** `name = value;` whose value does not read `name`. */
function setsAlone(s: Statement, name: string): boolean {
  if (s.type !== 'ExpressionStatement' || s.expression.type !== 'AssignmentExpression' || s.expression.operator !== '=') return false;
  const { left, right } = s.expression;
  return left.type === 'Identifier' && left.name === name && !referencedNames(right).has(name);
}

/** Where `name` is set in the node (`name = …`, `name += …`, `name++`, a destructuring assignment): each such expression's start. */
export function setsOf(node: Node, name: string): number[] {
  const out: number[] = [];
  walk(node, (n) => {
    if (n.type === 'AssignmentExpression' && boundNames(n.left as Node).some((b) => b.name === name)) out.push(n.start!);
    if (n.type === 'UpdateExpression' && n.argument.type === 'Identifier' && n.argument.name === name) out.push(n.start!);
    return undefined;
  });
  return out;
}
