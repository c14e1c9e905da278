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

/** Each assignment of a name in the statements, in source order, with the line it is on and where its expression starts. */
export function assignmentsIn(statements: readonly Statement[]): { name: string; line: number; start: number }[] {
  const out: { name: string; line: number; start: number }[] = [];
  for (const s of statements) {
    walk(s, (node) => {
      const line = node.loc?.start.line ?? 0;
      const start = node.start!;
      if (node.type === 'AssignmentExpression') for (const b of boundNames(node.left as Node)) out.push({ name: b.name, line, start });
      if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier') out.push({ name: node.argument.name, line, start });
      return undefined;
    });
  }
  return out;
}
