// Finds the handlers that serve tools/call, prompts/get and resources/read: the only
// requests that may answer input_required, so the only places a legacy call can migrate.
import type { HandlerType } from './registry-handler-type.ts';
import type { CallExpression, Node } from '@babel/types';
import { argumentParams, boundNames, isFunction, keyName, memberPath, propertyOf, someNode, stringValue, type FunctionNode } from './ast.ts';
import { stableBinding, type Imports } from './bindings.ts';
import { constDeclarations, constString, enclosingFunctions, namedFunctions, type Declarations, type FileIndex } from './file-index.ts';
import { receiverResolver } from './receivers.ts';
import { ARGS_SCHEMA_PROPERTY, HANDLER_REGISTRARS, LOW_LEVEL_METHODS, LOW_LEVEL_SCHEMAS } from './sdk-surface.ts';

export interface HandlerSite {
  kind: 'tool' | 'prompt' | 'resource';
  /** A low-level `setRequestHandler(...)` handler: one function serves every tool (prompt, resource). */
  lowLevel?: boolean;
  /** The registered name: a literal's (or const string's) value, else the argument's source text. */
  name: string;
  /** Set when the name is read at run time: the expression the handler names itself with (`TOOLS.create`). */
  nameText?: string;
  /** The registration; the function itself when another module registers it (see registeredHandlers). */
  call: CallExpression | FunctionNode;
  fn: FunctionNode;
  /** Index of the context parameter in the handler's parameter list. */
  ctxIndex: number;
  /** Ancestors of the registration call (to tell a registration made late, in a hook). */
  ancestors: readonly Node[];
  /**
   * A project's own tool definition (`defineTool({ name, inputSchema, handler })`) that its
   * registry passes to registerTool: the handler's parameters are all the codemod sees of its
   * registration, so a context parameter cannot be added to it.
   */
  definition?: boolean;
  /** A definition whose registry was read (see registry-declarations.ts): it shows where the context goes, and one may be added. */
  contextShown?: true;
  /**
   * The type an added context parameter is written with: of a function a handler delegates to
   * (see plan/delegates.ts), one registered apart from its declaration, or a tool or prompt
   * with no arguments schema.
   */
  contextType?: string;
  /**
   * Parameters written before an added context, where the function takes fewer than `ctxIndex`
   * (a command method dispatched with more arguments than it reads: see command-dispatch.ts).
   */
  fillers?: string[];
  /**
   * The registry's own type for its handlers when it puts typed arguments first, and the SDK
   * calls this one with its context alone (see registry-handler-type.ts): a context parameter
   * added to it would not typecheck.
   */
  argumentsFirstType?: HandlerType;
  /**
   * A handler a registry's declaration gets from its factory (see registry-declarations.ts):
   * the factory, and how many functions it may return (more than one: none can name the
   * state alone).
   */
  factory?: { fn: FunctionNode; returns: number };
  /**
   * Its registered name is not one the handler can name itself with (a declaration's `name:
   * prefix + x`; an instance's own `name`, which its class may change: that member's name): it
   * is refused.
   */
  unnamed?: true | { member: string };
}

/** The handler's context parameter, where it declares one (its `this` parameter aside). */
export function contextParam(handler: HandlerSite): FunctionNode['params'][number] | undefined {
  return argumentParams(handler.fn)[handler.ctxIndex];
}

/** A registration of a function another module exports (`registerTool('x', config, handleX)`, `handleX` imported). */
export interface ImportedRegistration {
  /** The local name the function is imported under. */
  local: string;
  kind: HandlerSite['kind'];
  /** The registered name (a string here), or the low-level method. */
  name: string;
  /** Where the context parameter sits, when the registration shows it. */
  ctxIndex?: number;
  lowLevel?: boolean;
}

/** What finding a file's handlers looks names up in, and what it gathers. */
interface Finding {
  index: FileIndex;
  imports: Imports;
  functions: Map<string, FunctionNode>;
  declarations: Declarations;
  handlers: HandlerSite[];
  unnamed: CallExpression[];
  imported: ImportedRegistration[];
}

/** The handlers of a file, and the registrations whose name cannot be read (their handlers are not migrated). */
export function findHandlers(
  index: FileIndex,
  imports: Imports = new Map(),
): { handlers: HandlerSite[]; unnamed: CallExpression[]; imported: ImportedRegistration[] } {
  const finding: Finding = {
    index,
    imports,
    functions: namedFunctions(index),
    declarations: constDeclarations(index),
    handlers: [],
    unnamed: [],
    imported: [],
  };
  for (const { node, ancestors } of index.calls) {
    const defined = definitionsIn(finding, node, ancestors);
    if (defined.length > 0) finding.handlers.push(...defined);
    const callee = node.callee;
    if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') continue;
    if (callee.property.name === 'setRequestHandler') addLowLevelRegistration(finding, node, ancestors);
    else addRegistration(finding, node, ancestors, callee.property.name);
  }
  return { handlers: finding.handlers, unnamed: finding.unnamed, imported: finding.imported };
}

/** `setRequestHandler(...)`: a handler of this file, or a function another module exports (that module migrates it). */
function addLowLevelRegistration(finding: Finding, node: CallExpression, ancestors: readonly Node[]): void {
  const { functions, imports } = finding;
  const low = lowLevelHandler(node, functions, ancestors);
  if (low) finding.handlers.push({ ...low, ancestors });
  const [target, given] = node.arguments;
  const method = target ? (stringValue(target) ?? (target.type === 'Identifier' ? LOW_LEVEL_SCHEMAS[target.name] : undefined)) : undefined;
  const lowKind = method ? LOW_LEVEL_METHODS[method] : undefined;
  if (lowKind && given?.type === 'Identifier' && !functions.has(given.name) && imports.get(given.name)?.from.startsWith('.'))
    finding.imported.push({ local: given.name, kind: lowKind, name: method!, ctxIndex: 1, lowLevel: true });
}

/** `registerTool(...)` and its kin (`method`): a handler of this file, or a function another module exports. */
function addRegistration(finding: Finding, node: CallExpression, ancestors: readonly Node[], method: string): void {
  const kind = HANDLER_REGISTRARS[method];
  if (!kind || node.arguments.length < 2) return;
  const lastArg = node.arguments[node.arguments.length - 1]!;
  // A handler passed by name: `registerTool('x', config, handleX)`, a method of the class
  // registering it (`this.handleX.bind(this)`), or a function written there, bound.
  const last = lastArg.type === 'Identifier' ? finding.functions.get(lastArg.name) : (methodReference(lastArg, ancestors) ?? boundFunction(lastArg) ?? lastArg);
  const first = node.arguments[0]!;
  // A function another module exports: that module migrates it, told how it is registered.
  if (!last && lastArg.type === 'Identifier' && finding.imports.get(lastArg.name)?.from.startsWith('.')) {
    const registered = constString(first, finding.declarations, enclosingFunctions(ancestors));
    const ctxIndex = shownContextIndex(node, method, kind);
    if (registered !== undefined && kind !== 'resource')
      finding.imported.push({ local: lastArg.name, kind, name: registered, ...(ctxIndex === undefined ? {} : { ctxIndex }) });
    return;
  }
  if (!last || !isFunction(last)) return;
  // The name is what requestState is bound to: a const's string value, never the variable's
  // name (two modules' `const name = '...'` would otherwise accept each other's state).
  const around = enclosingFunctions(ancestors);
  const name = constString(first, finding.declarations, around);
  // A name read at run time (`TOOLS.create`, an imported const): the handler names itself
  // with the same expression, when that reads the same value wherever the handler runs.
  const nameText = name === undefined ? stableNameExpression(finding.index, finding.imports, first, around, last) : undefined;
  if (name === undefined && nameText === undefined) {
    finding.unnamed.push(node);
    return;
  }
  const ctxIndex = contextIndex(kind, node, method, last);
  // A function declared apart from the registration is not typed by it: its added context is.
  // So is the context added to a tool or prompt with no arguments schema: without
  // strictNullChecks the SDK's callback type takes the arguments first there (`undefined
  // extends StandardSchemaWithJSON` holds), and the lone parameter would be typed as them.
  const typedApart = last !== lastArg || ctxIndex === 0;
  finding.handlers.push({
    kind,
    name: name ?? nameText!,
    ...(nameText ? { nameText } : {}),
    call: node,
    fn: last,
    ctxIndex,
    ancestors,
    ...(typedApart ? { contextType: 'ServerContext' } : {}),
  });
}

/** Where the registration of a function it cannot see shows the context parameter: second after an arguments schema. */
function shownContextIndex(call: CallExpression, method: string, kind: HandlerSite['kind']): number | undefined {
  const config = call.arguments[1];
  if ((method !== 'registerTool' && method !== 'registerPrompt') || config?.type !== 'ObjectExpression') return undefined;
  return propertyOf(config, ARGS_SCHEMA_PROPERTY[kind as 'tool' | 'prompt']) ? 1 : 0;
}

/**
 * The handlers another module registers by importing this module's functions (the engine
 * finds those registrations): each exported function, as a handler of that registration. Its
 * context comes second when the registration shows an arguments schema (or the function takes
 * two parameters), and is typed when it has to be added (nothing types it here).
 */
export function registeredHandlers(
  program: Node,
  registrations: ReadonlyArray<{ name: string; kind: HandlerSite['kind']; registered: string; ctxIndex?: number; lowLevel?: boolean }>,
): HandlerSite[] {
  const out: HandlerSite[] = [];
  if (program.type !== 'Program') return out;
  for (const statement of program.body) {
    if (statement.type !== 'ExportNamedDeclaration' || !statement.declaration) continue;
    const decl = statement.declaration;
    const named: Array<[string, Node]> =
      decl.type === 'FunctionDeclaration' && decl.id
        ? [[decl.id.name, decl]]
        : decl.type === 'VariableDeclaration'
          ? decl.declarations.flatMap((d) => (d.id.type === 'Identifier' && d.init && isFunction(d.init) ? [[d.id.name, d.init] as [string, Node]] : []))
          : [];
    for (const [name, fn] of named) {
      for (const r of registrations.filter((x) => x.name === name)) {
        const f = fn as FunctionNode;
        const ctxIndex = r.ctxIndex ?? (argumentParams(f).length >= 2 ? 1 : 0);
        out.push({
          kind: r.kind,
          name: r.registered,
          call: f,
          fn: f,
          ctxIndex,
          ancestors: [],
          contextType: 'ServerContext',
          ...(r.lowLevel ? { lowLevel: true } : {}),
        });
      }
    }
  }
  return out;
}

/**
 * Where the context parameter sits. v2 passes `(args, ctx)` when the tool or prompt declares
 * an arguments schema and `(ctx)` otherwise; resources pass `(uri, ctx)` or, for templates,
 * `(uri, variables, ctx)`.
 */
function contextIndex(kind: HandlerSite['kind'], call: CallExpression, method: string, fn: FunctionNode): number {
  const args = call.arguments;
  if (kind === 'resource') {
    const target = args[1];
    return target && target.type === 'NewExpression' ? 2 : 1;
  }
  if (method === 'registerTool' || method === 'registerPrompt') {
    const config = args[1];
    if (config && config.type === 'ObjectExpression') return propertyOf(config, ARGS_SCHEMA_PROPERTY[kind]) ? 1 : 0;
    // A config we cannot see into: trust the handler's own arity.
    return argumentParams(fn).length >= 2 ? 1 : 0;
  }
  // Legacy `tool(name, [description], [schema], [annotations], cb)`: a schema argument is an
  // object literal somewhere between the name and the callback.
  const middle = args.slice(1, -1);
  return middle.some((a) => a.type === 'ObjectExpression' || a.type === 'Identifier') ? 1 : 0;
}

/** `setRequestHandler(CallToolRequestSchema | 'tools/call', (request, ctx) => ...)` and its prompt and resource kin. */
function lowLevelHandler(call: CallExpression, functions: Map<string, FunctionNode>, ancestors: readonly Node[]): Omit<HandlerSite, 'ancestors'> | undefined {
  const [target, given] = call.arguments;
  const fn =
    given?.type === 'Identifier' ? functions.get(given.name) : given ? (methodReference(given, ancestors) ?? boundFunction(given) ?? given) : undefined;
  if (!target || !fn || !isFunction(fn)) return undefined;
  const method = stringValue(target) ?? (target.type === 'Identifier' ? LOW_LEVEL_SCHEMAS[target.name] : undefined);
  const kind = method ? LOW_LEVEL_METHODS[method] : undefined;
  if (!kind || !method) return undefined;
  return { kind, name: method, call, fn, ctxIndex: 1, lowLevel: true, ...(fn !== given ? { contextType: 'ServerContext' } : {}) };
}

/**
 * The source text of a registration name read at run time (`TOOLS.create`, `names.search`, an
 * imported const), when it reads the same value inside the handler as at the registration: a
 * chain of plain property reads from a name that is imported, a const, or a parameter nothing
 * assigns, and that the handler does not declare again.
 */
function stableNameExpression(index: FileIndex, imports: Imports, first: Node, functions: readonly FunctionNode[], handler: FunctionNode): string | undefined {
  const path = memberPath(first);
  if (path === undefined || path.startsWith('this')) return undefined;
  const root = path.split('.')[0]!;
  const b = receiverResolver(index, imports).bindingOf(root, functions);
  if (!b || !stableBinding(b, root)) return undefined;
  if (handler.params.some((p) => boundNames(p).some((n) => n.name === root)) || declaresInBody(handler, root)) return undefined;
  return path;
}

function declaresInBody(fn: FunctionNode, name: string): boolean {
  return someNode(
    fn.body,
    (node) =>
      (node.type === 'VariableDeclarator' && boundNames(node.id).some((b) => b.name === name)) ||
      ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id?.name === name),
  );
}

/** Property names a project's tool definition gives its handler function. */
const DEFINITION_HANDLER_KEYS = ['handler', 'execute', 'callback', 'run', 'cb'];

/**
 * Tool definitions handed to a call (`defineTool({ name, description, inputSchema, handler })`,
 * `registerAll(server, [{ name, handler }, ...])`): an object literal with a string `name` and
 * a handler function. Its registry passes the SDK's `(args, ctx)` through: the arguments come
 * first when the definition has an input schema (or the handler takes two parameters).
 */
function definitionsIn(finding: Finding, call: CallExpression, ancestors: readonly Node[]): HandlerSite[] {
  const found: HandlerSite[] = [];
  // Most calls hand over no object literal: looked at without allocating.
  if (!call.arguments.some((a) => a.type === 'ObjectExpression' || a.type === 'ArrayExpression')) return found;
  const objects = call.arguments.flatMap((a) =>
    a.type === 'ObjectExpression' ? [a] : a.type === 'ArrayExpression' ? a.elements.filter((e) => e?.type === 'ObjectExpression') : [],
  );
  for (const object of objects) {
    if (object?.type !== 'ObjectExpression') continue;
    const key = DEFINITION_HANDLER_KEYS.find((k) => propertyOf(object, k) !== undefined);
    const fn = key ? propertyOf(object, key) : undefined;
    const nameNode = propertyOf(object, 'name');
    if (!fn || !isFunction(fn) || !nameNode) continue;
    const around = enclosingFunctions(ancestors);
    const name = constString(nameNode, finding.declarations, around);
    const nameText = name === undefined ? stableNameExpression(finding.index, finding.imports, nameNode, around, fn) : undefined;
    if (name === undefined && nameText === undefined) continue;
    const schema = ['inputSchema', 'parameters', 'schema', 'argsSchema'].some((k) => propertyOf(object, k) !== undefined);
    const ctxIndex = schema || argumentParams(fn).length >= 2 ? 1 : 0;
    found.push({ kind: 'tool', name: name ?? nameText!, ...(nameText ? { nameText } : {}), call, fn, ctxIndex, ancestors, definition: true });
  }
  return found;
}

/**
 * `(async function (this: Service, args, ctx) { ... }).bind(this)`: the function, which the
 * bound copy calls with the arguments it is given (when nothing is bound but `this`).
 */
function boundFunction(node: Node): FunctionNode | undefined {
  if (node.type !== 'CallExpression' || node.arguments.length !== 1 || node.arguments[0]!.type === 'SpreadElement') return undefined;
  const callee = node.callee;
  const bind = callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' && callee.property.name === 'bind';
  return bind && callee.object.type === 'FunctionExpression' ? callee.object : undefined;
}

/**
 * `this.handleX` or `this.handleX.bind(this)` handed to a registration inside a class: the
 * method (or arrow-valued field) of that class, when `this` there is the class's instance.
 */
function methodReference(node: Node, ancestors: readonly Node[]): FunctionNode | undefined {
  let ref = node;
  if (
    ref.type === 'CallExpression' &&
    ref.callee.type === 'MemberExpression' &&
    !ref.callee.computed &&
    ref.callee.property.type === 'Identifier' &&
    ref.callee.property.name === 'bind' &&
    ref.arguments.length === 1 &&
    ref.arguments[0]!.type === 'ThisExpression'
  )
    ref = ref.callee.object;
  if (ref.type !== 'MemberExpression' || ref.object.type !== 'ThisExpression' || ref.computed) return undefined;
  const key = keyName(ref.property);
  // `this` is the class's only where no function but arrows lies between the call and a method.
  let cls: Node | undefined;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i]!;
    if (a.type === 'ClassMethod' || a.type === 'ClassPrivateMethod' || a.type === 'ClassProperty') {
      cls = ancestors
        .slice(0, i)
        .reverse()
        .find((c) => c.type === 'ClassDeclaration' || c.type === 'ClassExpression');
      break;
    }
    if (a.type === 'FunctionExpression' || a.type === 'FunctionDeclaration' || a.type === 'ObjectMethod') return undefined;
  }
  if (!cls || (cls.type !== 'ClassDeclaration' && cls.type !== 'ClassExpression') || !key) return undefined;
  for (const member of cls.body.body) {
    const name = 'key' in member && member.key ? keyName(member.key) : undefined;
    if (name !== key || ('static' in member && member.static)) continue;
    if ((member.type === 'ClassMethod' && member.kind === 'method') || member.type === 'ClassPrivateMethod') return member as FunctionNode;
    if ((member.type === 'ClassProperty' || member.type === 'ClassPrivateProperty') && member.value && isFunction(member.value)) return member.value;
  }
  return undefined;
}
