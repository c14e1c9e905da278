// A split helper's parameter may be an object pattern (`{ host, path, project = 'app' }: Options`).
// Its halves take it as written and its callers pass the same object to each, so a pattern
// splits like a plain name: a half takes it when it reads a name it binds. A default runs in
// every half that takes the pattern, so it must not compute anything; `xThen`, which gets its
// values from a half that already destructured them, takes the names it reads one by one.
import type { Node } from '@babel/types';
import { annotatedType, argumentParams, boundNames, hasSideEffects, keyName, type FunctionNode } from '../analyse/ast.ts';
import { lineOf } from '../core/line-refs.ts';

/** The names a parameter binds: its own, or those of its pattern. */
export function paramNames(param: Node): string[] {
  return boundNames(param).map((b) => b.name);
}

/** Why a parameter of the helper cannot be taken again by its halves (`whose ...`), if one cannot. */
export function paramsProblem(fn: FunctionNode): string | undefined {
  for (const param of argumentParams(fn)) {
    if (param.type === 'Identifier') continue;
    const why = patternProblem(param);
    if (why) return `whose parameter at line ${lineOf(param)} ${why}`;
  }
  return undefined;
}

/** Why a parameter pattern does not split (`has ...`): only object patterns of plain keys, with defaults that compute nothing. */
function patternProblem(node: Node): string | undefined {
  // Kept short: the marker's line shows what blocks in a few words (short-why.ts); the line says where.
  if (node.type === 'Identifier') return undefined;
  if (node.type === 'AssignmentPattern') return hasSideEffects(node.right) ? 'runs code in a default.' : patternProblem(node.left);
  if (node.type === 'RestElement') return 'has a rest element.';
  if (node.type !== 'ObjectPattern') return 'is an array pattern.';
  for (const property of node.properties) {
    if (property.type === 'RestElement') return 'has a rest element.';
    if (property.computed || keyName(property.key) === undefined) return 'has a computed key.';
    const why = patternProblem(property.value);
    if (why) return why;
  }
  return undefined;
}

/**
 * `xThen`'s parameters for the names of a pattern parameter it reads (`wanted`), typed when the
 * pattern is (`name: T`, from its annotation's member or as `Options['name']`); `narrowed` ones
 * (a guard on the way left when they were absent) without undefined or null.
 */
export function patternNamesText(source: string, param: Node, wanted: ReadonlySet<string>, narrowed: ReadonlySet<string>, typed: boolean): string[] {
  const pattern = param.type === 'AssignmentPattern' ? param.left : param;
  const annotation = annotatedType((pattern as { typeAnnotation?: Node | null }).typeAnnotation);
  const out: string[] = [];
  const visit = (node: Node, type: PartType | undefined, defaulted: boolean) => {
    if (node.type === 'AssignmentPattern') return visit(node.left, type, true);
    if (node.type === 'Identifier') {
      if (!wanted.has(node.name)) return;
      if (!typed || type === undefined) return void out.push(node.name);
      const text = narrowed.has(node.name) ? `NonNullable<${type.text}>` : defaulted && type.optional ? type.required : type.text;
      return void out.push(`${node.name}: ${text}`);
    }
    if (node.type !== 'ObjectPattern') return;
    for (const property of node.properties)
      if (property.type !== 'RestElement') visit(property.value, type && memberType(source, type, keyName(property.key)!), false);
  };
  visit(pattern, annotation && { node: annotation, text: source.slice(annotation.start!, annotation.end!), optional: false, required: '' }, false);
  return out;
}

/** A type as a pattern part reads it: its node when written out, its text, and whether it is of an optional member (`required`: without undefined). */
interface PartType {
  node?: Node;
  text: string;
  optional: boolean;
  required: string;
}

/** The type of member `key` of `type`: the member's own when `type` is written as an object type, else `T['key']`. */
function memberType(source: string, type: PartType, key: string): PartType {
  const member =
    type.node?.type === 'TSTypeLiteral' ? type.node.members.find((m) => m.type === 'TSPropertySignature' && !m.computed && keyName(m.key) === key) : undefined;
  const own = member?.type === 'TSPropertySignature' ? annotatedType(member.typeAnnotation) : undefined;
  if (member?.type === 'TSPropertySignature' && own) {
    const text = source.slice(own.start!, own.end!);
    const simple = !/^TS(Function|Constructor|Conditional|Union)Type$/.test(own.type);
    const required = simple ? text : `(${text})`;
    return member.optional
      ? { node: own, text: `${required} | undefined`, optional: true, required: text }
      : { node: own, text, optional: false, required: text };
  }
  const base = type.node?.type === 'TSTypeReference' ? type.text : `(${type.text})`;
  const indexed = `${type.optional ? `NonNullable<${type.required}>` : base}['${key}']`;
  return { text: indexed, optional: true, required: `Exclude<${indexed}, undefined>` };
}

/**
 * A parameter's text as a half that reads `reads` takes it: a pattern without the properties
 * that bind nothing it reads (the caller's object still has them), else as written.
 */
export function paramText(source: string, param: Node, reads: ReadonlySet<string> | undefined): string {
  const text = source.slice(param.start!, param.end!);
  if (!reads || param.type !== 'ObjectPattern') return text;
  const kept = param.properties.filter((p) => paramNames(p.type === 'RestElement' ? p : p.value).some((n) => reads.has(n)));
  if (kept.length === param.properties.length) return text;
  const annotation = param.typeAnnotation && 'typeAnnotation' in param.typeAnnotation ? param.typeAnnotation.typeAnnotation : undefined;
  const pattern = `{ ${kept.map((p) => source.slice(p.start!, p.end!)).join(', ')} }`;
  return annotation ? `${pattern}: ${source.slice(annotation.start!, annotation.end!)}` : pattern;
}
