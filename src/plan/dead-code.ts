// Declarations the migration leaves unused: an import of `ElicitResultSchema` the legacy call
// passed, an alias of the push API (`const elicit = server.server.elicitInput.bind(...)`, a
// destructured `send`, `const app = { mcp }`), a private field holding the low-level server
// (or a private parameter property only a split helper method read, with the argument each
// `new` of its class passes), the request context a server factory no longer reads (with the
// argument each call of it passes), and, once those go, the type they named. A declaration is
// dead when every reference to it lay in text the migration replaces (a migrated call, a split
// helper, a URL throw, a deleted 2025-era arm) whose replacement does not name it. One that was unused before is not
// the migration's to remove.
import type {
  CallExpression,
  ClassBody,
  ClassMethod,
  ImportDeclaration,
  Node,
  ObjectPattern,
  ObjectProperty,
  Program,
  Statement,
  TSParameterProperty,
  VariableDeclaration,
  VariableDeclarator,
} from '@babel/types';
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { annotatedType, boundNames, forEachNode, hasSideEffects, isNonReferencePosition, walk, type FunctionNode } from '../analyse/ast.ts';
import { isFactoryEntry, sdkName, serverFactories } from '../analyse/era-tests.ts';
import type { Indexed } from '../analyse/file-index.ts';
import type { Edit, Span } from '../core/vocabulary.ts';
import { listRemovals, removeStatement } from '../rewrite/edits/removals.ts';

/** Text the migration replaces, and what it puts there. */
export interface Replaced extends Span {
  text: string;
}

export interface DeadCode {
  /** Whole statements to remove (outside the migrated handler bodies). */
  edits: Edit[];
  /** Import specifiers to drop, by local name, by the import's start. */
  importDrops: Map<number, Set<string>>;
  /** Statements of migrated handler bodies to leave out, by their start. */
  inBodies: Set<number>;
}

interface Candidate {
  names: string[];
  /** Where the declaration is (its own references are there). */
  own: () => Span[];
  /** What removing it takes: an import specifier, statements, or a parameter property and the arguments passed to it. */
  removal: () => Removal;
  /** A class member: only references inside its class count, and a replacement naming it anyhow keeps it. */
  member?: Span;
  /** A parameter: only references inside its function count. */
  scope?: Span;
  /** Whether it may go at all: what it holds has nothing to run; its class is constructed only here. Asked of one about to go. */
  removable: () => boolean;
}

type Removal = { import: Extract<Node, { type: 'ImportDeclaration' }>; local: string } | { statements: Statement[] } | ParameterRemoval;

/**
 * A parameter and the argument each call passes it: a private parameter property
 * (`constructor(private readonly server: McpServer)`) and each `new` of its class, or a
 * factory's request context and each call of the factory.
 */
interface ParameterRemoval {
  parameter: Node;
  params: readonly Node[];
  /** The constructor goes with it: it had only that parameter and an empty body, in a class that extends nothing. */
  wholeConstructor?: ClassMethod;
  /** The one parameter of an arrow function, written without parentheses: `()` takes its place. */
  bare?: boolean;
  /** A property of a destructured parameter (`params` its pattern's): removed while the pattern keeps another. */
  pattern?: boolean;
  args: Array<{ list: readonly Node[]; index: number }>;
}

/**
 * The dead declarations of `program` once `replaced` is replaced. `bodies`: the migrated
 * handler bodies (a statement there is left out by the renderer, when it is one of
 * `renderable`, the statements the renderer writes one by one).
 */
export function deadDeclarations(
  { source, program, index, importedNames }: Pick<FileAnalysis, 'source' | 'program' | 'index' | 'importedNames'>,
  replaced: readonly Replaced[],
  bodies: readonly Span[],
  renderable: ReadonlySet<number>,
): DeadCode {
  const candidates = replaced.length > 0 ? mayDie(program, candidatesOf({ source, program, index, importedNames }, bodies, renderable), replaced) : [];
  if (candidates.length === 0) return { edits: [], importDrops: new Map(), inBodies: new Set() };
  const occurrences = identifierOccurrences(program, new Set(candidates.flatMap((c) => c.names)));
  return removalOf(source, deadAmong(candidates, occurrences, replaced), bodies);
}

/**
 * The candidates that die, found until no more do: each whose every reference outside its own
 * declaration lies in replaced text that does not name it, or in what goes with another dead one.
 */
function deadAmong(candidates: readonly Candidate[], occurrences: ReadonlyMap<string, number[]>, replaced: readonly Replaced[]): Set<Candidate> {
  const removed: Span[] = [];
  const dead = new Set<Candidate>();
  for (let changed = true; changed;) {
    changed = false;
    for (const c of candidates) {
      if (dead.has(c)) continue;
      const gone = c.names.every((name) => {
        const refs = (occurrences.get(name) ?? []).filter(
          (at) => !inside(at, c.own()) && (!c.member || inside(at, [c.member])) && (!c.scope || inside(at, [c.scope])),
        );
        // The name, not a property of that name (`inputRequired.elicit` does not name `elicit`; `...elicit` does);
        // a member is named as a property too (`this.server`).
        const word = c.member
          ? new RegExp(`(?<![\\w$#])${name.replace(/[$]/g, '\\$')}(?![\\w$])`)
          : new RegExp(`(?<![\\w$#])(?<!(?<!\\.\\.)\\.)${name.replace(/[$]/g, '\\$')}(?![\\w$])`);
        const dropped = (at: number) => replaced.some((r) => r.start <= at && at < r.end && !word.test(r.text)) || inside(at, removed);
        return refs.length > 0 && refs.every(dropped);
      });
      if (!gone || !c.removable()) continue;
      dead.add(c);
      removed.push(...removedSpans(c));
      changed = true;
    }
  }
  return dead;
}

/** What removing the dead declarations takes: statements removed (or left out of the migrated bodies), import specifiers dropped, parameters and their arguments removed. */
function removalOf(source: string, dead: ReadonlySet<Candidate>, bodies: readonly Span[]): DeadCode {
  const result: DeadCode = { edits: [], importDrops: new Map(), inBodies: new Set() };
  const removals = [...dead].map((c) => c.removal());
  result.edits.push(
    ...parameterEdits(
      source,
      removals.flatMap((r) => ('parameter' in r ? [r] : [])),
    ),
  );
  for (const removal of removals) {
    if ('parameter' in removal) continue;
    if ('import' in removal) {
      const drops = result.importDrops.get(removal.import.start!) ?? new Set<string>();
      drops.add(removal.local);
      result.importDrops.set(removal.import.start!, drops);
      continue;
    }
    for (const statement of removal.statements) {
      if (inside(statement.start!, bodies)) result.inBodies.add(statement.start!);
      else result.edits.push(removeStatement(source, statement));
    }
  }
  return result;
}

function inside(at: number, spans: readonly Span[]): boolean {
  return spans.some((s) => s.start <= at && at < s.end);
}

/** What goes with a dead declaration: its statements, its import specifier, or its parameter and the arguments passed to it. */
function removedSpans(c: Candidate): Span[] {
  const removal = c.removal();
  if ('statements' in removal) return removal.statements.map((s) => ({ start: s.start!, end: s.end! }));
  if ('parameter' in removal) return [...c.own(), ...removal.args.map(({ list, index }) => ({ start: list[index]!.start!, end: list[index]!.end! }))];
  return c.own();
}

/**
 * The candidates that may die: each of a dead one's names is referenced in replaced text, or in
 * what goes with another dead one. Found from the names in those spans alone (a walk of the
 * few nodes they cover), so that a file whose migration drops no declaration's last reference
 * is not walked whole, nor its declarations' initialisers looked into.
 */
function mayDie(program: Program, candidates: readonly Candidate[], replaced: readonly Span[]): Candidate[] {
  const named = new Set<string>();
  const possible = new Set<Candidate>();
  let spans: readonly Span[] = replaced;
  while (spans.length > 0) {
    for (const name of namesWithin(program, spans)) named.add(name);
    const more = candidates.filter((c) => !possible.has(c) && c.names.every((name) => named.has(name)) && c.removable());
    for (const c of more) possible.add(c);
    spans = more.flatMap(removedSpans);
  }
  return candidates.filter((c) => possible.has(c));
}

/** The identifier (and private) names occurring inside `spans`. */
function namesWithin(program: Program, spans: readonly Span[]): Set<string> {
  const names = new Set<string>();
  forEachNode(program, (node) => {
    if (!spans.some((s) => node.start! < s.end && s.start < node.end!)) return false;
    if (!spans.some((s) => s.start <= node.start! && node.start! < s.end)) return undefined;
    if (node.type === 'Identifier' || node.type === 'JSXIdentifier') names.add(node.name);
    else if (node.type === 'PrivateName') names.add(`#${node.id.name}`);
    return undefined;
  });
  return names;
}

/** Where each of `names` occurs as an identifier (types included) or private name (`#x`). */
function identifierOccurrences(program: Program, names: ReadonlySet<string>): Map<string, number[]> {
  const found = new Map<string, number[]>();
  const add = (name: string, at: number) => {
    if (!names.has(name)) return;
    const list = found.get(name);
    if (list) list.push(at);
    else found.set(name, [at]);
  };
  forEachNode(program, (node) => {
    if (node.type === 'Identifier' || node.type === 'JSXIdentifier') add(node.name, node.start!);
    else if (node.type === 'PrivateName') add(`#${node.id.name}`, node.start!);
  });
  return found;
}

/**
 * Imports, aliases (one declarator, nothing to run) and private fields (written only with
 * `this.#x = value`), from the file's index, in the order of the text.
 */
function candidatesOf(
  { source, program, index, importedNames }: Pick<FileAnalysis, 'source' | 'program' | 'index' | 'importedNames'>,
  bodies: readonly Span[],
  renderable: ReadonlySet<number>,
): Candidate[] {
  const found: Array<{ at: number; candidates: Candidate[] }> = [];
  const factories = serverFactories(index, importedNames);
  for (const fn of index.functions) {
    const candidate = contextParameter({ source, program, importedNames }, fn, factories);
    if (candidate) found.push({ at: fn.node.start!, candidates: [candidate] });
    else found.push({ at: fn.node.start!, candidates: patternProperties(fn.node, index.functions, bodies) });
  }
  for (const node of index.imports) found.push({ at: node.start!, candidates: importCandidates(node) });
  // An exported declaration may be read by another module: never the migration's to remove.
  const exported = new Set(program.body.flatMap((s) => (s.type === 'ExportNamedDeclaration' && s.declaration ? [s.declaration] : [])));
  for (const { node: d, declaration } of index.declarators) {
    const candidate = declaration.declarations.length === 1 && !exported.has(declaration) ? aliasCandidate(declaration, d, bodies, renderable) : undefined;
    if (candidate) found.push({ at: declaration.start!, candidates: [candidate] });
  }
  for (const node of index.otherDeclarations) {
    if (node.type === 'ClassDeclaration') found.push({ at: node.start!, candidates: parameterProperties(program, node, bodies) });
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') found.push({ at: node.body.start!, candidates: privateFields(node.body) });
  }
  return found.sort((a, b) => a.at - b.at).flatMap((f) => f.candidates);
}

function importCandidates(node: ImportDeclaration): Candidate[] {
  return node.specifiers.map((spec) => {
    const own = [{ start: spec.start!, end: spec.end! }];
    const removal = { import: node, local: spec.local.name };
    return { names: [spec.local.name], own: () => own, removal: () => removal, removable: () => true };
  });
}

/** `const x = <value>` or `const { a, b } = <value>` (outside the migrated bodies, or a statement they write one by one). */
function aliasCandidate(node: VariableDeclaration, d: VariableDeclarator, bodies: readonly Span[], renderable: ReadonlySet<number>): Candidate | undefined {
  const inBody = bodies.some((b) => b.start <= node.start! && node.end! <= b.end);
  const simplePattern =
    d.id.type === 'Identifier' || (d.id.type === 'ObjectPattern' && d.id.properties.every((p) => p.type === 'ObjectProperty' && p.shorthand));
  const init = d.init;
  if (!simplePattern || !init || (inBody && !renderable.has(node.start!))) return undefined;
  const own = [{ start: node.start!, end: node.end! }];
  const removal = { statements: [node] };
  return { names: boundNames(d.id).map((b) => b.name), own: () => own, removal: () => removal, removable: once(() => isInert(init)) };
}

function privateFields(body: ClassBody): Candidate[] {
  const out: Candidate[] = [];
  for (const member of body.body) {
    if (member.type !== 'ClassPrivateProperty' || member.static) continue;
    const name = member.key.id.name;
    const value = member.value;
    const writes = once(() => fieldWrites(body, name));
    const own = once(() => [member, ...writes()].map((s) => ({ start: s.start!, end: s.end! })));
    out.push({
      names: [`#${name}`],
      own,
      removal: () => ({ statements: [member as unknown as Statement, ...writes()] }),
      removable: once(() => !value || isInert(value)),
    });
  }
  return out;
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * The private parameter properties (and plain parameters) of a class the module alone constructs: each `new` of it
 * passes the argument with nothing to run, outside the migrated bodies (their text is
 * rewritten whole), and the class's name is used only to construct it and in types.
 */
function parameterProperties(program: Program, cls: Extract<Node, { type: 'ClassDeclaration' }>, bodies: readonly Span[]): Candidate[] {
  const ctor = cls.body.body.find((m): m is ClassMethod => m.type === 'ClassMethod' && m.kind === 'constructor');
  // A plain parameter counts too: only the constructor reads it (`scope`), as when it was handed on to a class whose parameter went.
  const params =
    ctor?.params.filter(
      (p): p is TSParameterProperty | Extract<Node, { type: 'Identifier' }> =>
        p.type === 'Identifier' || (p.type === 'TSParameterProperty' && p.accessibility === 'private' && p.parameter.type === 'Identifier'),
    ) ?? [];
  if (!ctor || params.length === 0 || !cls.id) return [];
  // How the class is constructed, looked for (a walk of the module) only when a parameter is about to go.
  const constructed = once(() => constructionsOf(program, cls));
  const inBody = (n: Node) => bodies.some((b) => b.start <= n.start! && n.end! <= b.end);
  const wholeConstructor = ctor.params.length === 1 && ctor.body.body.length === 0 && !cls.superClass;
  return params.map((parameter): Candidate => {
    const index = ctor.params.indexOf(parameter);
    const id = (parameter.type === 'Identifier' ? parameter : parameter.parameter) as Extract<Node, { type: 'Identifier' }>;
    const own = [{ start: parameter.start!, end: parameter.end! }];
    return {
      names: [id.name],
      own: () => own,
      ...(parameter.type === 'Identifier' ? { scope: { start: ctor.start!, end: ctor.end! } } : { member: { start: cls.body.start!, end: cls.body.end! } }),
      removal: () => ({
        parameter,
        params: ctor.params,
        ...(wholeConstructor ? { wholeConstructor: ctor } : {}),
        args: (constructed() ?? []).map((c) => ({ list: c.arguments, index })),
      }),
      removable: once(() => {
        const constructions = constructed();
        return (
          constructions !== undefined &&
          constructions.every(
            (c) =>
              !inBody(c) &&
              c.arguments.slice(0, index + 1).every((a) => a.type !== 'SpreadElement') &&
              c.arguments[index] !== undefined &&
              !hasSideEffects(c.arguments[index]!),
          )
        );
      }),
    };
  });
}

/**
 * The request context a server factory takes (its last parameter, typed McpRequestContext, or
 * the one serveStdio or createMcpHandler passes it): once nothing reads it (a dual-era
 * handler's era test went), it goes, with the argument each call of the factory passes
 * (`buildServer({ era: 'legacy' } as McpRequestContext)`). Only for a factory this module
 * alone calls or hands to the SDK, which calls one without parameters all the same.
 */
function contextParameter(
  file: Pick<FileAnalysis, 'source' | 'program' | 'importedNames'>,
  fn: Indexed<FunctionNode>,
  factories: ReadonlySet<FunctionNode>,
): Candidate | undefined {
  const { node } = fn;
  const parameter = node.params[node.params.length - 1];
  if (!parameter || (parameter.type !== 'Identifier' && parameter.type !== 'ObjectPattern')) return undefined;
  const annotation = annotatedType(parameter.typeAnnotation);
  const typed =
    annotation?.type === 'TSTypeReference' &&
    annotation.typeName.type === 'Identifier' &&
    sdkName(annotation.typeName.name, file.importedNames) === 'McpRequestContext';
  if (!typed && !(factories.has(node) && node.params.length === 1)) return undefined;
  const index = node.params.length - 1;
  const own = [{ start: parameter.start!, end: parameter.end! }];
  const calls = once(() => factoryCalls(file, fn));
  const bare = node.type === 'ArrowFunctionExpression' && !file.source.slice(node.start!, parameter.start!).includes('(');
  return {
    names: boundNames(parameter).map((b) => b.name),
    own: () => own,
    scope: { start: node.start!, end: node.end! },
    removal: () => ({
      parameter,
      params: node.params,
      ...(bare ? { bare } : {}),
      args: (calls() ?? []).flatMap((c) => (c.arguments.length > index ? [{ list: c.arguments, index }] : [])),
    }),
    removable: once(() => {
      const found = calls();
      return (
        found !== undefined && found.every((c) => c.arguments.length <= index + 1 && (c.arguments.length <= index || !hasSideEffects(c.arguments[index]!)))
      );
    }),
  };
}

/**
 * The shorthand properties of a function's destructured parameters (`make({ server, world }: Deps)`),
 * each to go from its pattern once nothing reads it. Not from a pattern with a rest element
 * (it would gather what goes), nor from a migrated handler's parameters or a function inside
 * a migrated body (the renderer writes those).
 */
function patternProperties(node: FunctionNode, functions: ReadonlyArray<Indexed<FunctionNode>>, bodies: readonly Span[]): Candidate[] {
  const patterns = node.params.flatMap((param) => (param.type === 'ObjectPattern' && allShorthand(param.properties) ? [param.properties] : []));
  // Most functions have no such parameter: the functions nested in them are then not looked for.
  if (patterns.length === 0) return [];
  const within = (inner: Span, outer: Span) => outer.start <= inner.start && inner.end <= outer.end;
  const span = { start: node.start!, end: node.end! };
  const nested = functions.filter((f) => f.node !== node && within({ start: f.node.start!, end: f.node.end! }, span));
  // A body's handler is the innermost function around it.
  const handles = (b: Span) => within(b, span) && !nested.some((f) => within(b, { start: f.node.start!, end: f.node.end! }));
  if (bodies.some((b) => within(span, b) || handles(b))) return [];
  return patterns.flatMap((properties) =>
    properties.map((property): Candidate => {
      const own = [{ start: property.start!, end: property.end! }];
      const removal: ParameterRemoval = { parameter: property, params: properties, args: [], pattern: true };
      return { names: boundNames(property.value).map((b) => b.name), own: () => own, scope: span, removal: () => removal, removable: () => true };
    }),
  );
}

/** Two properties or more, each a shorthand `name` (no rest element, renaming or default). */
function allShorthand(properties: ObjectPattern['properties']): properties is ObjectProperty[] {
  return properties.length >= 2 && properties.every((p) => p.type === 'ObjectProperty' && p.shorthand && p.value.type === 'Identifier');
}

/**
 * Each call of a factory by its name, or undefined when the module uses it otherwise (exports
 * it, passes it on) than calling it and handing it to the SDK. A factory written inline as
 * the SDK's argument has no call of its own.
 */
function factoryCalls(file: Pick<FileAnalysis, 'program' | 'importedNames'>, { node, ancestors }: Indexed<FunctionNode>): CallExpression[] | undefined {
  const parent = ancestors[ancestors.length - 1];
  if (parent?.type === 'CallExpression' && parent.arguments[0] === node && isFactoryEntry(parent, file.importedNames)) return [];
  const declarator = parent?.type === 'VariableDeclarator' && parent.init === node && parent.id.type === 'Identifier' ? parent : undefined;
  const id = node.type === 'FunctionDeclaration' ? node.id : declarator?.id.type === 'Identifier' ? declarator.id : undefined;
  const statement = node.type === 'FunctionDeclaration' ? parent : ancestors[ancestors.length - 3];
  if (!id || statement?.type === 'ExportNamedDeclaration' || statement?.type === 'ExportDefaultDeclaration') return undefined;
  const calls: CallExpression[] = [];
  let other = false;
  walk(file.program, (n, parents) => {
    if (other) return false;
    if (n.type !== 'Identifier' || n.name !== id.name || n === id) return undefined;
    const above = parents[parents.length - 1]!;
    if (isNonReferencePosition(n, above)) return undefined;
    if (above.type === 'CallExpression' && above.callee === n) calls.push(above);
    else if (!(above.type === 'CallExpression' && above.arguments[0] === n && isFactoryEntry(above, file.importedNames))) other = true;
    return undefined;
  });
  return other ? undefined : calls;
}

/**
 * Each `new` of a class, or of a class of this module extending it without a constructor of its
 * own (it passes its arguments on), or undefined when the module uses its name otherwise
 * (exports it, passes it on) than in types.
 */
function constructionsOf(program: Program, cls: Extract<Node, { type: 'ClassDeclaration' }>): Array<Extract<Node, { type: 'NewExpression' }>> | undefined {
  const name = cls.id!.name;
  const constructions: Array<Extract<Node, { type: 'NewExpression' }>> = [];
  let other = false;
  walk(program, (node, parents) => {
    if (node.type === 'ExportNamedDeclaration' || node.type === 'ExportDefaultDeclaration') {
      if (
        node.declaration === cls ||
        (node.type === 'ExportNamedDeclaration' && node.specifiers.some((s) => s.type === 'ExportSpecifier' && s.local.name === name))
      )
        other = true;
    }
    if (node.type !== 'Identifier' || node.name !== name || node === cls.id) return undefined;
    const parent = parents[parents.length - 1];
    if (parent?.type === 'NewExpression' && parent.callee === node) constructions.push(parent);
    else if (
      parent?.type === 'ClassDeclaration' &&
      parent.superClass === node &&
      !parent.body.body.some((m) => m.type === 'ClassMethod' && m.kind === 'constructor')
    ) {
      const inherited = constructionsOf(program, parent);
      if (inherited) constructions.push(...inherited);
      else other = true;
    } else if (parent?.type !== 'TSTypeReference') other = true;
    return undefined;
  });
  return other ? undefined : constructions;
}

/** The edits that remove dead parameter properties and their arguments, each list edited once. */
function parameterEdits(source: string, removals: readonly ParameterRemoval[]): Edit[] {
  const edits: Edit[] = [];
  const lists = new Map<readonly Node[], Set<number>>();
  const patterns = new Set(removals.filter((r) => r.pattern).map((r) => r.params));
  const drop = (list: readonly Node[], index: number) => lists.set(list, (lists.get(list) ?? new Set()).add(index));
  for (const r of removals) {
    for (const { list, index } of r.args) drop(list, index);
    if (r.wholeConstructor) edits.push(removeStatement(source, r.wholeConstructor));
    else if (r.bare) edits.push({ start: r.parameter.start!, end: r.parameter.end!, text: '()' });
    else drop(r.params, r.params.indexOf(r.parameter));
  }
  for (const [list, indexes] of lists) {
    // A pattern none of whose properties is read any more stays whole: `{}` would be a finding of its own.
    if (patterns.has(list) && indexes.size === list.length) continue;
    edits.push(...listRemovals(source, list, indexes));
  }
  return edits;
}

/** Statements `this.#name = <nothing to run>;` in a class body's methods. */
function fieldWrites(body: Node, name: string): Statement[] {
  const writes: Statement[] = [];
  forEachNode(body, (node) => {
    if (node.type === 'ExpressionStatement' && node.expression.type === 'AssignmentExpression' && node.expression.operator === '=') {
      const left = node.expression.left;
      if (
        left.type === 'MemberExpression' &&
        left.object.type === 'ThisExpression' &&
        left.property.type === 'PrivateName' &&
        left.property.id.name === name &&
        isInert(node.expression.right)
      ) {
        writes.push(node);
        return false;
      }
    }
    return undefined;
  });
  return writes;
}

/** Evaluating it does nothing: no side effect, or a `.bind(...)` of a member with such arguments. */
function isInert(node: Node): boolean {
  if (!hasSideEffects(node)) return true;
  return (
    node.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    !node.callee.computed &&
    node.callee.property.type === 'Identifier' &&
    node.callee.property.name === 'bind' &&
    !hasSideEffects(node.callee.object) &&
    node.arguments.every((a) => !hasSideEffects(a))
  );
}
