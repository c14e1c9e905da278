// The type of a const the checker calls `any` only because an operand has no declarations
// (`requested ?? randomUUID()` before `npm install`: no @types/node): read off the operators
// that build it. `a ?? b`, `a || b`, `c ? a : b` have the type of their operands when those
// agree; a template, or `+` with a string on either side, is a string; a comparison a boolean.
// An operand is typed by the checker, by this same reading, through a const it names, or, a
// call of a Node built-in, by node-builtins.ts. Anything else stays `any`: the caller refuses.
import type * as TS from 'typescript';
import type { TypeScript } from './load-typescript.ts';
import { builtinReturn } from './node-builtins.ts';

/** Operators whose result is a boolean whatever their operands. */
const BOOLEAN_OPERATORS = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=', 'in', 'instanceof']);

/** The type `init` has by its operators and operands; undefined when they do not show one. */
export function composedType(ts: TypeScript, checker: TS.TypeChecker, init: TS.Expression): TS.Type | undefined {
  return new Composer(ts, checker).type(init, 0);
}

class Composer {
  constructor(
    private readonly ts: TypeScript,
    private readonly checker: TS.TypeChecker,
  ) {}

  type(expr: TS.Expression, depth: number): TS.Type | undefined {
    const { ts, checker } = this;
    if (depth > 8) return undefined;
    if (ts.isParenthesizedExpression(expr)) return this.type(expr.expression, depth + 1);
    if (ts.isNonNullExpression(expr)) return this.nonNullable(this.type(expr.expression, depth + 1));
    if (ts.isStringLiteralLike(expr) || ts.isTemplateExpression(expr) || ts.isTypeOfExpression(expr)) return checker.getStringType();
    if (ts.isNumericLiteral(expr)) return checker.getNumberType();
    if (expr.kind === ts.SyntaxKind.TrueKeyword || expr.kind === ts.SyntaxKind.FalseKeyword) return checker.getBooleanType();
    if (ts.isPrefixUnaryExpression(expr) && expr.operator === ts.SyntaxKind.ExclamationToken) return checker.getBooleanType();
    if (ts.isConditionalExpression(expr)) return this.either(this.type(expr.whenTrue, depth + 1), this.type(expr.whenFalse, depth + 1));
    if (ts.isBinaryExpression(expr)) return this.binary(expr, depth);
    const type = checker.getTypeAtLocation(expr);
    if (!(type.flags & ts.TypeFlags.Any)) return type;
    if (ts.isCallExpression(expr) && !expr.questionDotToken) return this.builtinCall(expr.expression);
    if (ts.isIdentifier(expr)) return this.constant(expr, depth);
    return undefined;
  }

  private binary(expr: TS.BinaryExpression, depth: number): TS.Type | undefined {
    const { ts, checker } = this;
    const operator = ts.tokenToString(expr.operatorToken.kind) ?? '';
    if (BOOLEAN_OPERATORS.has(operator)) return checker.getBooleanType();
    const left = () => this.type(expr.left, depth + 1);
    const right = () => this.type(expr.right, depth + 1);
    // `a || b` is `a` unless falsy: of its type, with null and undefined gone (the falsy
    // strings and numbers are still strings and numbers), or `b`.
    if (operator === '??' || operator === '||') return this.either(this.nonNullable(left()), right());
    if (operator === '+') {
      const [l, r] = [left(), right()];
      const { StringLike, NumberLike } = ts.TypeFlags;
      if (this.all(l, StringLike) || this.all(r, StringLike)) return checker.getStringType();
      return this.all(l, NumberLike) && this.all(r, NumberLike) ? checker.getNumberType() : undefined;
    }
    return undefined;
  }

  /** A type both operands have: the same type, or the same primitive (literals widened). */
  private either(a: TS.Type | undefined, b: TS.Type | undefined): TS.Type | undefined {
    if (!a || !b) return undefined;
    if (a === b) return a;
    const { Never, StringLike, NumberLike, BooleanLike } = this.ts.TypeFlags;
    if (a.flags & Never) return b;
    if (b.flags & Never) return a;
    if (this.all(a, StringLike) && this.all(b, StringLike)) return this.checker.getStringType();
    if (this.all(a, NumberLike) && this.all(b, NumberLike)) return this.checker.getNumberType();
    if (this.all(a, BooleanLike) && this.all(b, BooleanLike)) return this.checker.getBooleanType();
    return undefined;
  }

  /** Whether every member of `type` (`boolean` is `true | false`) is of `kind`. */
  private all(type: TS.Type | undefined, kind: TS.TypeFlags): boolean {
    return type !== undefined && (type.isUnion() ? type.types : [type]).every((t) => t.flags & kind);
  }

  private nonNullable(type: TS.Type | undefined): TS.Type | undefined {
    return type && this.checker.getNonNullableType(type);
  }

  /** A call of a Node built-in the table knows: `randomUUID()` imported by name, `path.join()` through the module's namespace or default import. */
  private builtinCall(callee: TS.Expression): TS.Type | undefined {
    const { ts } = this;
    let name: string;
    let from: string | undefined;
    if (ts.isIdentifier(callee)) {
      const specifier = this.importOf(callee);
      if (!specifier || !ts.isImportSpecifier(specifier.declaration)) return undefined;
      name = (specifier.declaration.propertyName ?? specifier.declaration.name).text;
      from = specifier.module;
    } else if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && ts.isIdentifier(callee.name)) {
      const module = this.importOf(callee.expression);
      if (!module || ts.isImportSpecifier(module.declaration)) return undefined;
      name = callee.name.text;
      from = module.module;
    } else return undefined;
    const returned = builtinReturn(from, name);
    if (returned === 'string') return this.checker.getStringType();
    if (returned === 'number') return this.checker.getNumberType();
    return returned === 'boolean' ? this.checker.getBooleanType() : undefined;
  }

  /** The import declaring `id` (a named, default or namespace import), with its module's specifier. */
  private importOf(id: TS.Identifier): { declaration: TS.Declaration; module: string } | undefined {
    const { ts } = this;
    const declaration = this.checker.getSymbolAtLocation(id)?.getDeclarations()?.[0];
    if (!declaration || !(ts.isImportSpecifier(declaration) || ts.isImportClause(declaration) || ts.isNamespaceImport(declaration))) return undefined;
    let at: TS.Node = declaration;
    while (!ts.isImportDeclaration(at)) at = at.parent;
    if (at.importClause?.isTypeOnly || !ts.isStringLiteral(at.moduleSpecifier)) return undefined;
    return { declaration, module: at.moduleSpecifier.text };
  }

  /** A const with no annotation, in the project's own code: its initialiser's type. */
  private constant(id: TS.Identifier, depth: number): TS.Type | undefined {
    const { ts } = this;
    const declaration = this.checker.getSymbolAtLocation(id)?.valueDeclaration;
    if (!declaration || !ts.isVariableDeclaration(declaration) || !ts.isIdentifier(declaration.name) || declaration.type || !declaration.initializer)
      return undefined;
    if (!(declaration.parent.flags & ts.NodeFlags.Const) || declaration.getSourceFile().isDeclarationFile) return undefined;
    return this.type(declaration.initializer, depth + 1);
  }
}
