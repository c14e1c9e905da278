// A handler that dispatches through a type another module declares (`registerTool(command.name,
// config, async (args, ctx) => command.execute(args))`, `command: Command` imported), to a class
// of a third module that extends a base class of a fourth (`class Deploy extends BaseCommand`,
// `abstract class BaseCommand implements Command`). The run links them: from a method that asks
// through another module's helper but that no handler of its module reaches, up the class's
// `extends`/`implements` chain across modules, to the handlers dispatching through a type of that
// chain. Each module is then told its part: the class's method is a handler (like registeredAs),
// the handler hands its context on and returns a question, and the declarations of the method
// on the chain (the interface's, a base class's abstract one) take the context and may return a
// question (like widenDefiners). A link that cannot be shown whole is not made.
import type { Node } from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { importedDispatches, ownMethod, promisedOf, promiseType } from '../analyse/command-dispatch.ts';
import path from 'node:path';
import { argumentParams, walk } from '../analyse/ast.ts';
import { readonlyInstanceMember } from '../analyse/registry-declarations.ts';
import type { DispatchLinks } from '../plan/plan-options.ts';
import type { RerunCall } from '../plan/types.ts';
import { fileLineRef } from '../core/line-refs.ts';

type ClassNode = Extract<Node, { type: 'ClassDeclaration' }>;
type InterfaceNode = Extract<Node, { type: 'TSInterfaceDeclaration' }>;
type MethodSignature = Extract<Node, { type: 'TSMethodSignature' }>;

/** A declaration of the chain: a class or an interface, in its module. */
interface Link {
  module: string;
  node: ClassNode | InterfaceNode;
}

/** What the engine gives the search: each module's analysis, the modules importing some of a set, and a specifier's module. */
export interface LinkWorld {
  analyse(module: string): FileAnalysis | undefined;
  /** A module's path as the run names it. */
  display(module: string): string;
  importersOf(modules: ReadonlySet<string>): Set<string>;
  resolve(fromModule: string, specifier: string): string | undefined;
}

/** By module, what each is told (see DispatchLinks). */
export type LinkedModules = Map<string, { [K in keyof DispatchLinks]-?: Array<NonNullable<DispatchLinks[K]>[number]> }>;

/** One dispatched method linked: its module and class, the handlers' modules dispatching to it, the declarations on its chain. */
export interface DispatchLink {
  module: string;
  method: NonNullable<DispatchLinks['methods']>[number];
  calls: Array<{ module: string } & NonNullable<DispatchLinks['calls']>[number]>;
  declarations: Array<{ module: string } & NonNullable<DispatchLinks['declarations']>[number]>;
}

/** A dispatch to a method that cannot be linked: the handler's module and line, why, and what would fix it. */
export interface Unlinked {
  module: string;
  caller: string;
  at: { module: string; line: number };
  why: string;
  fix: string;
}

/**
 * The links of `callers` (each a method `Class.method` of a module, reaching another module's
 * asking helper with no handler of its module reaching it) to handlers of other modules that
 * dispatch to it; and the callers dispatched to that cannot be linked, with why.
 */
export function dispatchLinks(world: LinkWorld, callers: ReadonlyArray<{ module: string; caller: string }>): { links: DispatchLink[]; unlinked: Unlinked[] } {
  const links: DispatchLink[] = [];
  const unlinked: Unlinked[] = [];
  const seen = new Set<string>();
  for (const { module, caller } of callers) {
    const [clsName, method] = caller.split('.') as [string, string | undefined];
    const cls = method ? declarationIn(world.analyse(module), clsName) : undefined;
    if (!method || cls?.type !== 'ClassDeclaration' || seen.has(`${module}\0${caller}`)) continue;
    seen.add(`${module}\0${caller}`);
    const link = linkOf(world, module, cls, method);
    if (link && 'why' in link) unlinked.push({ module, caller, ...link });
    else if (link) links.push(link);
  }
  return { links, unlinked };
}

type Refused = Pick<Unlinked, 'at' | 'why' | 'fix'>;

function linkOf(world: LinkWorld, module: string, cls: ClassNode, method: string): DispatchLink | Refused | undefined {
  const chain = chainOf(world, { module, node: cls });
  const dispatches = dispatchesTo(world, chain, method);
  if (dispatches.length === 0) return undefined;
  const first = dispatches[0]!;
  const refused = (why: string, fix: string): Refused => ({ at: { module: first.module, line: first.calls[0]!.call.loc!.start.line }, why, fix });
  const { width, key } = first;
  if (dispatches.some((d) => d.width !== width || d.key !== key))
    return refused('its handlers pass different arguments', 'pass the same arguments in each call');
  const linked = linkedDeclarations(world, chain.slice(1), method, width);
  if ('why' in linked) return refused(linked.why, linked.fix);
  const own = ownMethod(cls, method);
  if (!own) return refused(`its \`${method}()\` is not an async method with its return type written`, `make \`${method}()\` so`);
  if (!readonlyInstanceMember(cls, key)) return refused(`its class may change its \`${key}\``, `make \`${key}\` readonly`);
  const count = argumentParams(own).length;
  if (count > width) return refused('it takes more parameters than the call passes', 'take the parameters the call passes');
  // A call of its own would pass no context, and get a question it does not answer.
  const direct = directCall(world, module, cls, method);
  if (direct) return refused(`it is also called on a \`${cls.id!.name}\` directly (${direct})`, `call \`${method}()\` only through \`${first.typeName}\``);
  const fillers = count < width ? typedParams(world.analyse(module)!, linked.params.slice(count), false) : undefined;
  const abstracts = linked.abstracts.map((a) => ({ ...a, optional: typedParams(world.analyse(a.module)!, linked.params.slice(a.count), true) }));
  if ((count < width && !fillers) || abstracts.some((a) => !a.optional))
    return refused('a parameter type of the interface is not named where it would be added', 'import that type there');
  const rerun = bracketsAround(world, dispatches);
  return {
    module,
    method: { cls: cls.id!.name, method, key, width, ...(fillers ? { fillers } : {}), ...(rerun.length > 0 ? { rerun } : {}) },
    calls: dispatches.map((d) => ({ module: d.module, type: d.typeName, method })),
    declarations: [
      ...linked.interfaces.map((i) => ({ module: i.module, owner: i.owner, method })),
      ...abstracts.map((a) => ({ module: a.module, owner: a.owner, method, ...(a.optional!.length > 0 ? { optional: a.optional! } : {}) })),
    ],
  };
}

/** The calls of the per-round brackets around the dispatches, each once, named with the module it is made in. */
function bracketsAround(world: LinkWorld, dispatches: ReturnType<typeof dispatchesTo>): RerunCall[] {
  const calls = dispatches.flatMap((d) => d.rerun.map((r) => ({ ...r, file: world.display(d.module) })));
  return calls.filter((c, i) => calls.findIndex((o) => o.file === c.file && o.line === c.line && o.text === c.text) === i);
}

/** What each module is told of the links given: `methodsOnly`, the methods alone (to learn which migrate). */
export function linkedModules(links: readonly DispatchLink[], methodsOnly = false): LinkedModules {
  const out: LinkedModules = new Map();
  const entry = (module: string) => {
    if (!out.has(module)) out.set(module, { methods: [], calls: [], declarations: [] });
    return out.get(module)!;
  };
  const same = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);
  for (const link of links) {
    entry(link.module).methods.push(link.method);
    if (methodsOnly) continue;
    for (const { module, ...c } of link.calls) if (!entry(module).calls.some((x) => same(x, c))) entry(module).calls.push(c);
    for (const { module, ...d } of link.declarations) if (!entry(module).declarations.some((x) => same(x, d))) entry(module).declarations.push(d);
  }
  return out;
}

/**
 * A call of the class's method on an object shown to be of that class (`new Cls()`, a local
 * set to one or declared of its type, `this` in the class), in its module or a module that
 * imports it (through a re-exporting module too): its file's name and line.
 */
function directCall(world: LinkWorld, module: string, cls: ClassNode, method: string): string | undefined {
  const name = cls.id!.name;
  const near = world.importersOf(new Set([module]));
  const files = new Set([module, ...near, ...world.importersOf(near)]);
  for (const file of files) {
    const analysis = world.analyse(file);
    if (!analysis || !analysis.source.includes(name)) continue;
    const typed = new Set<string>();
    const isCls = (n: Node | null | undefined) => n?.type === 'NewExpression' && n.callee.type === 'Identifier' && n.callee.name === name;
    walk(analysis.program, (node) => {
      if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && isCls(node.init)) typed.add(node.id.name);
      const annotation = node.type === 'Identifier' && node.typeAnnotation?.type === 'TSTypeAnnotation' ? node.typeAnnotation.typeAnnotation : undefined;
      if (annotation?.type === 'TSTypeReference' && annotation.typeName.type === 'Identifier' && annotation.typeName.name === name)
        typed.add((node as { name: string }).name);
    });
    let found: string | undefined;
    walk(analysis.program, (node, parents) => {
      if (found || node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || !keyIs(node.callee.property, method)) return undefined;
      const object = node.callee.object;
      const own = object.type === 'ThisExpression' && parents.includes(cls);
      // Its line as the module will be written (a marker there moves it): see core/line-refs.ts.
      if (own || isCls(object) || (object.type === 'Identifier' && typed.has(object.name)))
        found = `${path.basename(file)}:${fileLineRef(world.display(file), node.loc!.start.line)}`;
      return undefined;
    });
    if (found) return found;
  }
  return undefined;
}

/** The class or interface of the module declared under `name` (exported or not). */
function declarationIn(analysis: FileAnalysis | undefined, name: string): ClassNode | InterfaceNode | undefined {
  for (const statement of analysis?.program.body ?? []) {
    const d = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if ((d?.type === 'ClassDeclaration' || d?.type === 'TSInterfaceDeclaration') && d.id?.name === name) return d;
  }
  return undefined;
}

/** A name the module uses as a type: its own declaration, or one imported from a module of the run. */
function resolveType(world: LinkWorld, module: string, name: string): Link | undefined {
  const analysis = world.analyse(module);
  const local = declarationIn(analysis, name);
  if (local) return { module, node: local };
  const imported = analysis?.importedNames.get(name);
  const target = imported?.from.startsWith('.') ? world.resolve(module, imported.from) : undefined;
  const node = target ? declarationIn(world.analyse(target), imported!.imported) : undefined;
  return node && target ? { module: target, node } : undefined;
}

/** The class, then what it extends and implements, across modules (each once). */
function chainOf(world: LinkWorld, start: Link): Link[] {
  const chain: Link[] = [];
  const seen = new Set<Node>();
  const visit = (link: Link | undefined) => {
    if (!link || seen.has(link.node)) return;
    seen.add(link.node);
    chain.push(link);
    const { node } = link;
    const names =
      node.type === 'ClassDeclaration'
        ? [node.superClass?.type === 'Identifier' ? node.superClass.name : '', ...(node.implements ?? []).map(heritageName)]
        : (node.extends ?? []).map(heritageName);
    for (const name of names) if (name) visit(resolveType(world, link.module, name));
  };
  visit(start);
  return chain;
}

function heritageName(h: Node): string {
  return h.type === 'TSExpressionWithTypeArguments' && h.expression.type === 'Identifier' ? h.expression.name : '';
}

/** The handlers of the run dispatching `method` through a type of the chain, with their module. */
function dispatchesTo(world: LinkWorld, chain: readonly Link[], method: string) {
  const types = chain.slice(1);
  const modules = new Set(types.map((t) => t.module));
  const found: Array<ReturnType<typeof importedDispatches>[number] & { module: string }> = [];
  for (const module of new Set([...world.importersOf(modules), ...modules])) {
    const analysis = world.analyse(module);
    for (const d of analysis ? importedDispatches(analysis) : []) {
      if (d.method !== method) continue;
      const target = world.resolve(module, d.from);
      if (types.some((t) => t.module === target && t.node.id?.name === d.imported)) found.push({ ...d, module });
    }
  }
  return found;
}

/**
 * The declarations of `method` on the chain above the class: interface signatures returning a
 * Promise with `width` parameters (one at least, whose parameters fill the others), and abstract
 * methods with at most that many. Undefined when one cannot take the context (a concrete method
 * the class overrides, another count, no Promise).
 */
function linkedDeclarations(world: LinkWorld, chain: readonly Link[], method: string, width: number) {
  const other = {
    why: `a declaration of \`${method}()\` on its chain takes other parameters or no Promise`,
    fix: `declare \`${method}()\` as the call passes it`,
  };
  const interfaces: Array<{ module: string; owner: string }> = [];
  const abstracts: Array<{ module: string; owner: string; count: number }> = [];
  let params: MethodSignature['parameters'] | undefined;
  let source = '';
  for (const { module, node } of chain) {
    const owner = node.id!.name;
    if (node.type === 'TSInterfaceDeclaration') {
      const signatures = node.body.body.filter((m): m is MethodSignature => m.type === 'TSMethodSignature' && keyIs(m.key, method));
      if (signatures.length > 1) return other;
      const s = signatures[0];
      if (!s) continue;
      if (!promisedOf(s) || s.parameters.length !== width) return other;
      interfaces.push({ module, owner });
      params ??= s.parameters;
      source = params === s.parameters ? world.analyse(module)!.source : source;
      continue;
    }
    for (const m of node.body.body) {
      if ((m.type !== 'ClassMethod' && m.type !== 'TSDeclareMethod') || m.static || !keyIs(m.key, method)) continue;
      if (m.type === 'ClassMethod' || !m.abstract)
        return { why: `the base class \`${owner}\` implements \`${method}()\` too`, fix: `make \`${method}()\` abstract in \`${owner}\`` };
      const returned = m.returnType?.type === 'TSTypeAnnotation' ? m.returnType.typeAnnotation : undefined;
      if (!returned || !promiseType(returned) || m.params.length > width || !m.params.every((p) => p.type === 'Identifier')) return other;
      abstracts.push({ module, owner, count: m.params.length });
    }
  }
  return params
    ? { interfaces, abstracts, params: params.map((p) => ({ p, source })) }
    : { why: `no interface of its chain declares \`${method}()\``, fix: `declare \`${method}()\` in the interface` };
}

function keyIs(key: Node, name: string): boolean {
  return key.type === 'Identifier' && key.name === name;
}

/** Types every module may name. */
const GLOBAL_TYPES = new Set([
  'string',
  'number',
  'boolean',
  'unknown',
  'undefined',
  'null',
  'object',
  'any',
  'void',
  'never',
  'AbortSignal',
  'Record',
  'Array',
  'Promise',
  'Date',
  'Map',
  'Set',
  'URL',
  'Error',
  'readonly',
]);

/**
 * The interface's parameters, as a module written with a `_` (unread) and their written type:
 * required (`_signal: AbortSignal | undefined`) for a method, optional (`_signal?: AbortSignal`)
 * for an abstract declaration. Undefined when a type names something the module cannot.
 */
function typedParams(
  target: FileAnalysis,
  params: ReadonlyArray<{ p: MethodSignature['parameters'][number]; source: string }>,
  optional: boolean,
): string[] | undefined {
  const out: string[] = [];
  const known = (name: string) => GLOBAL_TYPES.has(name) || target.importedNames.has(name) || declarationIn(target, name) !== undefined;
  for (const { p, source } of params) {
    const annotation = p.type === 'Identifier' && p.typeAnnotation?.type === 'TSTypeAnnotation' ? p.typeAnnotation.typeAnnotation : undefined;
    if (p.type !== 'Identifier' || !annotation) return undefined;
    const written = source.slice(annotation.start!, annotation.end!);
    if (/['"`]/.test(written) || !(written.match(/[A-Za-z_$][\w$]*/g) ?? []).every(known)) return undefined;
    const type = /=>/.test(written) ? `(${written})` : written;
    if (optional) out.push(`_${p.name}?: ${type}`);
    else out.push(`_${p.name}: ${p.optional && !/\bundefined\b/.test(type) ? `${type} | undefined` : type}`);
  }
  return out;
}
