// What the in-place rewrite of a handler needs to know about the statements of its body, read
// off the syntax tree once, as spans and names (the plan holds no syntax tree): the names each
// statement reads, the declarations it makes (and whether their initialisers may run twice),
// and the parts of a compound statement's header the rewrite changes (a condition, a for
// loop's initialiser, a for...of loop's variable).
import type { Node, Statement } from '@babel/types';
import { boundNames, hasSideEffects, referencedNames, walk } from '../analyse/ast.ts';
import { namesAssignedIn } from './liveness.ts';
import type { Span } from '../core/vocabulary.ts';

export interface DeclaratorFacts {
  names: string[];
  /** The binding is a pattern (`{ a, b }`), not one name. */
  pattern: boolean;
  /** The name or pattern, without its type annotation. */
  binding: Span;
  /** Just past the name and its type annotation: where an initialiser goes when there is none. */
  idEnd: number;
  init?: Span & { binds: Binding };
  /** No initialiser, or one that does nothing when run again (no call, assignment, await...). */
  pure: boolean;
}

export interface DeclarationFacts {
  kind: 'const' | 'let' | 'var';
  declarators: DeclaratorFacts[];
}

/**
 * How loosely an expression binds, for writing it after `x || ` or `x && `: `low` needs
 * parentheses after either (`?:`, `??`, assignment, a sequence), `or` after `&&`, and `and`
 * gets them after `||` too, for the reader (as formatters write mixed `||` and `&&`).
 */
export type Binding = 'low' | 'or' | 'and' | 'tight';

export interface StatementFacts {
  /** Every name the statement references (shadowing ignored: over, never under). */
  reads: ReadonlySet<string>;
  /** Every name it assigns (`x = ...`, `x++`). */
  assigns: ReadonlySet<string>;
  declaration?: DeclarationFacts;
  /** The condition of an if, while, do...while or for, and how loosely it binds. */
  test?: Span & { binds: Binding };
  /** A switch's value, and each case's test (none for default) and whether it computes anything. */
  discriminant?: Span;
  cases?: Array<{ test?: Span; pure: boolean }>;
  /** An if with an else branch. */
  hasElse?: boolean;
  /** An if without else whose branch always leaves: the names its condition rules null and undefined out for after it (`if (!x) return ...`). */
  rulesOut?: string[];
  /** A for loop's initialiser: a declaration, or an expression. */
  forInit?: { span: Span; declaration?: DeclarationFacts };
  /** A for...of loop's variable: how it is declared, and whether the body assigns it. */
  forOf?: { kind?: 'const' | 'let' | 'var'; names: string[]; assigned: boolean };
}

/**
 * Facts of every statement of a handler body (at any depth), by the statement's start.
 * `nullChecked`: the names a check rules null and undefined out for after it (lifting.ts).
 */
export function statementFacts(body: Node, nullChecked: (statement: Statement) => string[]): Map<number, StatementFacts> {
  const facts = new Map<number, StatementFacts>();
  walk(body, (node) => {
    if (node === body || !isStatement(node)) return undefined;
    facts.set(node.start!, factsOf(node, nullChecked));
    return undefined;
  });
  return facts;
}

function isStatement(node: Node): node is Statement {
  return /Statement$|Declaration$/.test(node.type) && node.type !== 'BlockStatement';
}

function factsOf(statement: Statement, nullChecked: (statement: Statement) => string[]): StatementFacts {
  const facts: StatementFacts = { reads: referencedNames(statement), assigns: namesAssignedIn([statement]) };
  if (statement.type === 'VariableDeclaration') facts.declaration = declarationFacts(statement);
  if (statement.type === 'IfStatement') {
    facts.test = testOf(statement.test);
    facts.hasElse = statement.alternate != null;
    const ruledOut = nullChecked(statement);
    if (ruledOut.length > 0) facts.rulesOut = ruledOut;
  }
  if (statement.type === 'WhileStatement' || statement.type === 'DoWhileStatement') facts.test = testOf(statement.test);
  if (statement.type === 'SwitchStatement') {
    facts.discriminant = span(statement.discriminant);
    facts.cases = statement.cases.map((c) => (c.test ? { test: span(c.test), pure: !hasSideEffects(c.test) } : { pure: true }));
  }
  if (statement.type === 'ForStatement') {
    if (statement.test) facts.test = testOf(statement.test);
    if (statement.init)
      facts.forInit = {
        span: span(statement.init),
        ...(statement.init.type === 'VariableDeclaration' ? { declaration: declarationFacts(statement.init) } : {}),
      };
  }
  if (statement.type === 'ForOfStatement') {
    const left = statement.left;
    const names =
      left.type === 'VariableDeclaration' ? left.declarations.flatMap((d) => boundNames(d.id).map((b) => b.name)) : boundNames(left).map((b) => b.name);
    const assigned = namesAssignedIn([statement.body]);
    facts.forOf = {
      ...(left.type === 'VariableDeclaration' ? { kind: left.kind as 'const' | 'let' | 'var' } : {}),
      names,
      assigned: names.some((n) => assigned.has(n)),
    };
  }
  return facts;
}

function declarationFacts(declaration: Extract<Node, { type: 'VariableDeclaration' }>): DeclarationFacts {
  return {
    kind: declaration.kind as DeclarationFacts['kind'],
    declarators: declaration.declarations.map((d) => ({
      names: boundNames(d.id).map((b) => b.name),
      pattern: d.id.type !== 'Identifier',
      binding: { start: d.id.start!, end: bindingEnd(d.id) },
      idEnd: d.id.end!,
      ...(d.init ? { init: testOf(d.init) } : {}),
      pure: !d.init || !hasSideEffects(d.init),
    })),
  };
}

/** Where a declarator's name or pattern ends, before its type annotation. */
function bindingEnd(id: Node): number {
  if (id.type === 'Identifier') return id.start! + id.name.length;
  return 'typeAnnotation' in id && id.typeAnnotation ? id.typeAnnotation.start! : id.end!;
}

/** An expression's span, and how loosely it binds. */
function testOf(test: Node): Span & { binds: Binding } {
  const loose =
    test.type === 'ConditionalExpression' ||
    test.type === 'AssignmentExpression' ||
    test.type === 'SequenceExpression' ||
    test.type === 'ArrowFunctionExpression' ||
    test.type === 'YieldExpression' ||
    (test.type === 'LogicalExpression' && test.operator === '??');
  const logical = test.type === 'LogicalExpression' ? test.operator : undefined;
  const binds: Binding = loose ? 'low' : logical === '||' ? 'or' : logical === '&&' ? 'and' : 'tight';
  return { ...span(test), binds };
}

function span(node: Node): Span {
  return { start: node.start!, end: node.end! };
}
