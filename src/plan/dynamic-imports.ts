// A handler that takes another module's helper with `import()` (`const { findRoot } = await
// import('./roots.js')`) calls it as a static importer does: its call asks through the helper's
// halves, which the same statement binds in place of the helper (`const { findRootRequest,
// findRootResult } = await import('./roots.js')`). The statement runs again on the retry
// (loading a module again gives the module loaded before: purity.ts), so the result half is
// bound there too (rederive.ts).
import type { Node } from '@babel/types';
import { isFunction, isNonReferencePosition, walk, type FunctionNode } from '../analyse/ast.ts';
import { literalImport } from '../analyse/module-imports.ts';
import type { Edit } from '../core/vocabulary.ts';
import type { HandlerSite } from '../analyse/find-handlers.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import type { Round } from './handler-rounds.ts';
import { refuse, type Refusal } from './refusal.ts';

type Property = Extract<Node, { type: 'ObjectProperty' }>;

/**
 * The property of `const { ... } = await import('...')` in `fn`'s own code (not a function
 * nested in it) that binds `name`, where a call at `at` sees it: declared before the call, in a
 * block around it.
 */
export function dynamicBinding(fn: FunctionNode, name: string, at: Node): Property | undefined {
  return dynamicLoad(fn, name, at)?.property;
}

/** The statement dynamicBinding finds the property in. */
function dynamicDeclaration(fn: FunctionNode, name: string, at: Node): Node | undefined {
  return dynamicLoad(fn, name, at)?.declaration;
}

function dynamicLoad(fn: FunctionNode, name: string, at: Node): { property: Property; declaration: Node } | undefined {
  let found: { property: Property; declaration: Node } | undefined;
  walk(fn.body, (node, parents) => {
    if (found || (isFunction(node) && node !== fn)) return false;
    if (node.type !== 'VariableDeclaration' || node.declarations.length !== 1 || node.end! > at.start!) return undefined;
    const { id, init } = node.declarations[0]!;
    if (id.type !== 'ObjectPattern' || !literalImport(init)) return false;
    const block = parents[parents.length - 1];
    if (!block || block.start! > at.start! || at.end! > block.end!) return false;
    const property = id.properties.find((p): p is Property => p.type === 'ObjectProperty' && p.value.type === 'Identifier' && p.value.name === name);
    if (property) found = { property, declaration: node };
    return false;
  });
  return found;
}

/**
 * The edits that bind the halves where each property binds a helper (`{ findRoot }` → `{
 * findRootRequest, findRootResult }`), keeping the helper's own name where `fn` still reads it
 * elsewhere than in the `asked` calls (a call left as it is).
 */
export function halvesBound(
  source: string,
  fn: FunctionNode,
  bound: ReadonlyArray<{ property: Property; halves: readonly string[] }>,
  asked: ReadonlySet<Node>,
): Edit[] {
  const edits = new Map<Property, Edit>();
  for (const { property, halves } of bound) {
    if (edits.has(property)) continue;
    const local = (property.value as Extract<Node, { type: 'Identifier' }>).name;
    const kept = readElsewhere(fn, local, property, asked) ? [source.slice(property.start!, property.end!)] : [];
    edits.set(property, { start: property.start!, end: property.end!, text: [...kept, ...halves].join(', ') });
  }
  return [...edits.values()];
}

/** Whether `fn` reads `local` other than as the callee of an `asked` call (or where `property` binds it). */
function readElsewhere(fn: FunctionNode, local: string, property: Property, asked: ReadonlySet<Node>): boolean {
  const callees = new Set([...asked].map((c) => (c as { callee?: Node }).callee));
  let read = false;
  walk(fn.body, (node, parents) => {
    if (read || node === property) return false;
    const parent = parents[parents.length - 1];
    if (node.type === 'Identifier' && node.name === local && !callees.has(node) && !(parent && isNonReferencePosition(node, parent))) read = true;
    return undefined;
  });
  return read;
}

/** A call of another module's helper whose name `fn`'s module does not import statically: taken with import(), if at all. */
export function dynamicallyBound(call: Node, imported: ReadonlyMap<string, unknown>): string | undefined {
  const callee = (call as { callee?: Node }).callee;
  return callee?.type === 'Identifier' && !imported.has(callee.name) ? callee.name : undefined;
}

/** What the binding of halves reads of a file's planning (file-planning.ts imports this module's users). */
export interface DynamicCallers {
  source: string;
  analysis: { importedNames: ReadonlyMap<string, unknown> };
  externalVia: readonly { handler: HandlerSite; call?: unknown; site: LegacySite; external: { name: string; split?: { identity?: boolean } } }[];
}

/** The edits of a migrated handler that bind the halves of the helpers it takes with import() and asks through (`migrates`). */
export function dynamicHalvesEdits(file: DynamicCallers, handler: HandlerSite, migrates: (handler: HandlerSite, site: LegacySite) => boolean): Edit[] {
  const calls = file.externalVia.filter((e) => e.handler === handler && e.call === undefined && migrates(handler, e.site));
  const bound = calls.flatMap(({ site, external }) => {
    const local = dynamicallyBound(site.call, file.analysis.importedNames);
    const property = local && dynamicBinding(handler.fn, local, site.call);
    const base = external.name.split('.').pop()!;
    return property ? [{ property, halves: [`${base}Request`, ...(external.split!.identity ? [] : [`${base}Result`])] }] : [];
  });
  return halvesBound(file.source, handler.fn, bound, new Set(calls.map((c) => c.site.call)));
}

/**
 * Why a handler cannot ask through a helper it binds with import(), if it cannot: the statement
 * that binds it does not run again on the retry (code that runs once before a question reads what
 * it binds), so the result half would not be bound there.
 */
export function unboundHalves(
  imported: ReadonlyMap<string, unknown>,
  fn: FunctionNode,
  rounds: readonly Round[],
  rederived: ReadonlySet<number>,
): Refusal | undefined {
  for (const site of rounds.flatMap((r) => r.sites)) {
    const local = site.via && site.via.result.join('') !== '' ? dynamicallyBound(site.call, imported) : undefined;
    const declaration = local && dynamicDeclaration(fn, local, site.call);
    if (declaration && !rederived.has(declaration.start!))
      return refuse('unserialisable-local', 'importedHelper', { helper: site.via!.helper, line: String(declaration.loc!.start.line) }).at(site);
  }
  return undefined;
}

/**
 * A function of this module (no handler) that binds another module's helper with import() and
 * is split to ask through its halves: the statement stays in the request half, binding the
 * request half in place of the helper; the result half loads the module where it calls the
 * helper's result half (`(await import('./roots.js')).findRootResult(...)`, the module loaded
 * before). `via` is the call standing for the request, changed so; undefined when the statement
 * binds more than the helper, or is not the function's own.
 */
export function loadedVia(source: string, fn: FunctionNode, local: string, via: LegacySite, base: string): { via: LegacySite; binding: Edit } | undefined {
  const load = dynamicLoad(fn, local, via.call);
  const declarator = (load?.declaration as { declarations?: Node[] } | undefined)?.declarations?.[0];
  const specifier = declarator?.type === 'VariableDeclarator' ? literalImport(declarator.init) : undefined;
  const pattern = declarator?.type === 'VariableDeclarator' ? declarator.id : undefined;
  if (!load || !specifier || pattern?.type !== 'ObjectPattern' || pattern.properties.length !== 1) return undefined;
  const init = (declarator as Extract<Node, { type: 'VariableDeclarator' }>).init as Extract<Node, { type: 'AwaitExpression' }>;
  const loaded = `(${source.slice(init.start!, init.end!)})`;
  const [before, after] = via.via!.result;
  if (!before.startsWith(`${base}Result(`)) return undefined;
  const { property } = load;
  return {
    via: { ...via, via: { ...via.via!, result: [`${loaded}.${before}`, after], asyncResult: true } },
    binding: { start: property.start!, end: property.end!, text: `${base}Request` },
  };
}

/**
 * `split`'s edit with the binding of `binding` made in its request half (which keeps the
 * statement as written, at its first occurrence), or undefined if the statement is not there.
 */
export function withBinding(source: string, edit: Edit, binding: Edit, statement: Node): Edit | undefined {
  const text = source.slice(statement.start!, statement.end!);
  const at = edit.text.indexOf(text);
  if (at === -1) return undefined;
  const bound = `${text.slice(0, binding.start - statement.start!)}${binding.text}${text.slice(binding.end - statement.start!)}`;
  return { ...edit, text: `${edit.text.slice(0, at)}${bound}${edit.text.slice(at + text.length)}` };
}

/** The statement a property of `const { ... } = await import(...)` is in (for withBinding). */
export function bindingStatement(fn: FunctionNode, local: string, at: Node): Node | undefined {
  return dynamicDeclaration(fn, local, at);
}
