// The request a split helper made, written over the helper's own parameters: what a legacy
// entry (legacy-entry.ts) pushes when its request half asks. A helper that asks itself makes
// its request as written; one that asks through another split helper makes that helper's,
// with that helper's parameters replaced by the arguments of its call (`isAllowed(server, p)`
// makes `server.server.listRoots()`; `resolve({ server: context.server })`, whose parameter is
// `{ server }`, makes `context.server.server.listRoots()`). Only requests whose words are the
// parameters, never reassigned, and the module's names can be made again in the entry.
import { parseExpression } from '@babel/parser';
import type { Node } from '@babel/types';
import { boundNames, isFunction, isNonReferencePosition, referencedNames, walk, type FunctionNode } from '../analyse/ast.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import type { PushTemplate } from '../analyse/find-sites.ts';

/** A name a parameter binds: the parameter itself, or the property `key` a destructured one takes (`{ server }`). */
export interface ParamBinding {
  name: string;
  param: number;
  key?: string;
  /** Its declared type allows `undefined` (`x?: T`, `{ server?: T }`): a TypeScript entry asserts it is there. */
  optional: boolean;
}

/** The names `fn`'s parameters bind, when each is a plain name or a flat destructuring of plain names; undefined otherwise. */
export function paramBindings(fn: FunctionNode): ParamBinding[] | undefined {
  const bindings: ParamBinding[] = [];
  for (const [param, p] of fn.params.entries()) {
    if (p.type === 'Identifier') bindings.push({ name: p.name, param, optional: p.optional === true || allowsUndefined(p.typeAnnotation) });
    else if (p.type === 'ObjectPattern') {
      for (const prop of p.properties) {
        if (prop.type !== 'ObjectProperty' || prop.computed || prop.key.type !== 'Identifier' || prop.value.type !== 'Identifier') return undefined;
        bindings.push({ name: prop.value.name, param, key: prop.key.name, optional: p.optional === true || optionalMember(p.typeAnnotation, prop.key.name) });
      }
    } else return undefined;
  }
  return bindings;
}

/** A parameter as the entry hands it on: its name, or the object its destructuring took apart (`{ host, server }`). */
export function paramText(fn: FunctionNode, param: number, bindings: readonly ParamBinding[]): string {
  const own = bindings.filter((b) => b.param === param);
  if (fn.params[param]!.type === 'Identifier') return own[0]!.name;
  return `{ ${own.map((b) => (b.key === b.name ? b.name : `${b.key}: ${b.name}`)).join(', ')} }`;
}

/** The request `site` makes, over `fn`'s parameters; undefined when it reads anything else of `fn`'s, or cannot be followed. */
export function pushTemplate(source: string, fn: FunctionNode, site: LegacySite, bindings: readonly ParamBinding[] | undefined): PushTemplate | undefined {
  if (!bindings) return undefined;
  if (!site.via) {
    if (!madeAgainAnywhere(fn, [site.call], bindings)) return undefined;
    return { text: source.slice(site.call.start!, site.call.end!), names: namesRead([site.call], bindings) };
  }
  const inner = site.via.push;
  if (!inner) return undefined;
  const by = new Map<string, string>();
  const read: Node[] = [];
  for (const n of inner.names) {
    const arg = site.via.args[n.param];
    if (!arg || arg.type === 'SpreadElement' || arg.type === 'ArgumentPlaceholder') return undefined;
    const taken = n.key === undefined ? arg : arg.type === 'ObjectExpression' ? propertyValue(arg, n.key) : arg;
    if (!taken || runsSomething(taken)) return undefined;
    read.push(taken);
    const text = wrapped(source, taken);
    by.set(n.name, n.key !== undefined && taken === arg ? `${text}.${n.key}` : text);
  }
  if (!madeAgainAnywhere(fn, read, bindings)) return undefined;
  const text = withNames(inner.text, by);
  return text === undefined ? undefined : { text, names: namesRead(read, bindings) };
}

/** The one request all of `templates` make, or undefined when they differ (the entry would need to know which point asked). */
export function samePush(templates: ReadonlyArray<PushTemplate | undefined>): PushTemplate | undefined {
  const [first] = templates;
  return first && templates.every((t) => t?.text === first.text) ? first : undefined;
}

/** `text`, an expression, with each name of `by` it reads written as `by` says (a shorthand `{ x }` as `{ x: ... }`); undefined when it does not parse. */
export function withNames(text: string, by: ReadonlyMap<string, string>): string | undefined {
  let expression: Node;
  try {
    expression = parseExpression(text, { plugins: ['typescript'] });
  } catch {
    return undefined;
  }
  const edits = new Map<number, { end: number; text: string }>();
  walk(expression, (node, parents) => {
    const parent = parents[parents.length - 1];
    if (node.type !== 'Identifier' || !by.has(node.name) || (parent && isNonReferencePosition(node, parent))) return undefined;
    const shorthand = parent?.type === 'ObjectProperty' && parent.shorthand ? parent : undefined;
    const span = shorthand ?? node;
    edits.set(span.start!, { end: span.end!, text: shorthand ? `${node.name}: ${by.get(node.name)!}` : by.get(node.name)! });
    return undefined;
  });
  let out = text;
  for (const [start, edit] of [...edits].sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + edit.text + out.slice(edit.end);
  return out;
}

/** Whether `nodes` read nothing of `fn`'s own but its parameters, never reassigned (no local, no `this`, no `arguments`, no function of its own). */
function madeAgainAnywhere(fn: FunctionNode, nodes: readonly Node[], bindings: readonly ParamBinding[]): boolean {
  let own = false;
  for (const node of nodes)
    walk(node, (current) => {
      if (current.type === 'ThisExpression' || current.type === 'Super' || isFunction(current)) own = true;
      return own ? false : undefined;
    });
  if (own) return false;
  const params = new Set(bindings.map((b) => b.name));
  const locals = declaredWithin(fn.body);
  const assigned = assignedWithin(fn.body);
  return nodes.every((node) =>
    [...referencedNames(node)].every((name) => name !== 'arguments' && (params.has(name) ? !assigned.has(name) : !locals.has(name))),
  );
}

/** Whether evaluating `node` again would run code (a call, a `new`, an assignment): an argument the entry must not repeat. */
function runsSomething(node: Node): boolean {
  let runs = false;
  walk(node, (current) => {
    if (RUNS.has(current.type) || isFunction(current)) runs = true;
    return runs ? false : undefined;
  });
  return runs;
}

const RUNS = new Set([
  'CallExpression',
  'OptionalCallExpression',
  'NewExpression',
  'AwaitExpression',
  'YieldExpression',
  'AssignmentExpression',
  'UpdateExpression',
  'TaggedTemplateExpression',
]);

/** The bindings `nodes` read, as a template names them. */
export function namesRead(nodes: readonly Node[], bindings: readonly ParamBinding[]): PushTemplate['names'] {
  const read = new Set(nodes.flatMap((n) => [...referencedNames(n)]));
  return bindings.filter((b) => read.has(b.name)).map((b) => ({ name: b.name, param: b.param, ...(b.key !== undefined ? { key: b.key } : {}) }));
}

/** The value of the property `key` of an object literal with no spread and no other property of that name. */
function propertyValue(object: Extract<Node, { type: 'ObjectExpression' }>, key: string): Node | undefined {
  if (object.properties.some((p) => p.type === 'SpreadElement')) return undefined;
  const named = object.properties.filter(
    (p): p is Extract<Node, { type: 'ObjectProperty' }> =>
      p.type === 'ObjectProperty' &&
      !p.computed &&
      ((p.key.type === 'Identifier' && p.key.name === key) || (p.key.type === 'StringLiteral' && p.key.value === key)),
  );
  return named.length === 1 ? (named[0]!.value as Node) : undefined;
}

/** The node's text, in parentheses unless it is a name or a member, which a `.key` or a `.server` may follow as it is. */
function wrapped(source: string, node: Node): string {
  const text = source.slice(node.start!, node.end!);
  return node.type === 'Identifier' || node.type === 'MemberExpression' ? text : `(${text})`;
}

/** Every name declared anywhere under `body` (its locals, its functions' names and parameters, its catch clauses'). */
function declaredWithin(body: Node): Set<string> {
  const names = new Set<string>();
  const add = (pattern: Node | null | undefined) => {
    if (pattern) for (const b of boundNames(pattern)) names.add(b.name);
  };
  walk(body, (node) => {
    if (node.type === 'VariableDeclarator') add(node.id);
    else if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) add(node.id);
    else if (node.type === 'CatchClause') add(node.param);
    if (isFunction(node)) for (const p of node.params) add(p);
    return undefined;
  });
  return names;
}

/** Every name assigned or updated anywhere under `body` (`x = ...`, `x++`, `({ x } = ...)`). */
function assignedWithin(body: Node): Set<string> {
  const names = new Set<string>();
  walk(body, (node) => {
    if (node.type === 'AssignmentExpression') for (const b of boundNames(node.left)) names.add(b.name);
    else if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier') names.add(node.argument.name);
    return undefined;
  });
  return names;
}

/** Whether a written type allows `undefined` (`T | undefined`, `T | null`). */
function allowsUndefined(annotation: Node | null | undefined): boolean {
  const type = annotation?.type === 'TSTypeAnnotation' ? annotation.typeAnnotation : undefined;
  return type?.type === 'TSUnionType' && type.types.some((t) => t.type === 'TSUndefinedKeyword' || t.type === 'TSNullKeyword');
}

/** Whether the object type written for a destructured parameter makes `key` optional (`{ server?: T }`). */
function optionalMember(annotation: Node | null | undefined, key: string): boolean {
  const type = annotation?.type === 'TSTypeAnnotation' ? annotation.typeAnnotation : undefined;
  if (type?.type !== 'TSTypeLiteral') return false;
  return type.members.some(
    (m) => m.type === 'TSPropertySignature' && m.key.type === 'Identifier' && m.key.name === key && (m.optional === true || allowsUndefined(m.typeAnnotation)),
  );
}
