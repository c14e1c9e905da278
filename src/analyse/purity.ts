// Whether a piece of a handler only derives values, so that running it again on a retry gives
// the same thing it gave the first call (or the same read of a store, fresh): no call whose
// effect it cannot see, no change to anything but objects it made itself, no read of what
// belongs to one request. Derived from the arguments, constants, names outside the handler,
// standard-library reads (`Map.get`, `Array.find`, `String.trim`), module functions whose
// bodies are shown so, fresh collections and functions (made, not called), and calls the user
// declared idempotent. Pure: the caller says what each name is (PurityScope).
import type { Node, Statement } from '@babel/types';
import { boundNames, isFunction, isNonReferencePosition, walk, type FunctionNode } from './ast.ts';
import { isConnectionCapabilitiesRead } from './capability-reads.ts';

/** What a name read in a handler is to the handler. */
export type HandlerName =
  /** An argument of the call: JSON, re-sent on every retry. */
  | 'argument'
  /** The context parameter: its request-bound members (id, _meta, signal) are the retry's. */
  | 'context'
  /** A local the handler derives again on every entry. */
  | 'derived'
  /** Such a local holding an object the handler made itself (`new Set()`, `[]`): it may be changed. */
  | 'fresh'
  /** Any other local: its value came from work that runs once. */
  | 'local'
  /** A value the caller passes again on the retry (a helper's parameter): read, never changed, not known to be JSON. */
  | 'parameter';

export interface PurityScope {
  /** What the handler's own name is, undefined for a name declared outside the handler (or a global). */
  handlerName(name: string): HandlerName | undefined;
  /** Whether the module declares the name anywhere (so it is no global). */
  declaredInModule(name: string): boolean;
  /** A function the name means at `from` (the handler, or a function being shown pure) whose body may be shown pure. */
  functionNamed(name: string, from: FunctionNode | undefined): FunctionNode | undefined;
  /** Whether calling `method` on the value of `receiver` only reads a standard-library value (`notes.get`). */
  readsOnly(receiver: Node, method: string): boolean;
  /** Whether the user declared the call idempotent. */
  declaredIdempotent(call: Node): boolean;
  /**
   * The code is a handler's, whose `server.getClientCapabilities()` the rewrite makes read the
   * request's capabilities (src/rewrite/client-capabilities.ts), which every retry carries again.
   */
  requestCapabilities?: boolean;
}

/** Why a call may run again. */
export type RerunWhy = 'read' | 'pure-function' | 'declared' | 'bracket';

export interface Purity {
  /** The first piece of code that keeps it from running again; undefined when it may. */
  blocker?: Node;
  /** The calls it makes, each with why it may run again (made only when there is no blocker). */
  calls: Array<{ node: Node; why: RerunWhy }>;
}

/** Methods of standard-library values that only read them, by the value's type. */
export const READ_ONLY_METHODS: Readonly<Record<string, ReadonlySet<string>>> = (() => {
  const array = ['at', 'concat', 'entries', 'every', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'flat', 'flatMap', 'forEach'];
  array.push('includes', 'indexOf', 'join', 'keys', 'lastIndexOf', 'map', 'reduce', 'reduceRight', 'slice', 'some', 'toReversed', 'toSorted');
  array.push('toSpliced', 'values', 'with', 'toString');
  const string = ['at', 'charAt', 'charCodeAt', 'codePointAt', 'concat', 'endsWith', 'includes', 'indexOf', 'lastIndexOf', 'localeCompare'];
  string.push('match', 'normalize', 'padEnd', 'padStart', 'repeat', 'replace', 'replaceAll', 'search', 'slice', 'split', 'startsWith');
  string.push('substring', 'toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'toLocaleUpperCase', 'toString', 'trim', 'trimEnd', 'trimStart');
  const map = ['get', 'has', 'keys', 'values', 'entries', 'forEach'];
  const set = ['has', 'keys', 'values', 'entries', 'forEach'];
  const number = ['toFixed', 'toPrecision', 'toString', 'toLocaleString'];
  const tables = { Array: array, ReadonlyArray: array, String: string, Map: map, ReadonlyMap: map, Set: set, ReadonlySet: set, Number: number };
  return Object.fromEntries(Object.entries(tables).map(([k, v]) => [k, new Set(v)]));
})();

/** Every method that only reads a value of some standard-library type: the checker is asked about no other. */
export const ANY_READ_ONLY_METHOD: ReadonlySet<string> = new Set(Object.values(READ_ONLY_METHODS).flatMap((methods) => [...methods]));

/** What a JSON value (an argument) may be: its read-only methods are those of strings, arrays and numbers. */
export const JSON_READ_ONLY_METHODS: ReadonlySet<string> = new Set([...READ_ONLY_METHODS.Array!, ...READ_ONLY_METHODS.String!, ...READ_ONLY_METHODS.Number!]);

/** Read-only methods that call the function they are given. */
const CALLBACK_METHODS = new Set(['every', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'flatMap', 'forEach', 'map', 'reduce']);
for (const m of ['reduceRight', 'some', 'toSorted', 'replace', 'replaceAll']) CALLBACK_METHODS.add(m);

/** Globals whose call only computes a value from its arguments. */
const PURE_GLOBAL_CALLS = new Set(['String', 'Number', 'Boolean', 'BigInt', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'structuredClone']);
for (const f of ['encodeURIComponent', 'decodeURIComponent', 'encodeURI', 'decodeURI']) PURE_GLOBAL_CALLS.add(f);

/** Static methods of globals that only compute (Math.random and Date.now are not here). */
const PURE_STATICS: Readonly<Record<string, ReadonlySet<string>>> = {
  JSON: new Set(['stringify', 'parse']),
  Math: new Set(['abs', 'ceil', 'floor', 'round', 'trunc', 'sign', 'min', 'max', 'pow', 'sqrt', 'cbrt', 'log', 'log2', 'log10', 'exp', 'hypot']),
  Object: new Set(['keys', 'values', 'entries', 'fromEntries', 'getOwnPropertyNames', 'hasOwn', 'is']),
  Array: new Set(['isArray', 'from', 'of']),
  Number: new Set(['isInteger', 'isFinite', 'isNaN', 'isSafeInteger', 'parseFloat', 'parseInt']),
  String: new Set(['fromCharCode', 'fromCodePoint']),
};

/** Globals whose `new` makes a fresh object and does nothing else (`new Date()` reads the clock: only with arguments). */
const PURE_CONSTRUCTORS = new Set(['Set', 'Map', 'WeakSet', 'WeakMap', 'Array', 'URL', 'URLSearchParams', 'RegExp', 'Error', 'TypeError']);
for (const c of ['RangeError', 'SyntaxError', 'ReferenceError', 'Date']) PURE_CONSTRUCTORS.add(c);

/** Members of a request's context that belong to that one request: a retry has its own (and its own `_meta`). */
const REQUEST_BOUND = new Set(['id', '_meta', 'signal', 'requestId']);

/** Methods that change their receiver: allowed only on an object the code made itself. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin', 'set', 'add', 'delete', 'clear']);

/** Methods whose result is a new array or object: a local holding it may be changed. */
const FRESH_RESULTS = new Set(['map', 'filter', 'slice', 'concat', 'flat', 'flatMap', 'toSorted', 'toReversed', 'toSpliced', 'with', 'split']);
for (const m of ['from', 'of', 'keys', 'values', 'entries', 'fromEntries', 'parse', 'structuredClone']) FRESH_RESULTS.add(m);

/** Read-only methods whose result is a value of their receiver's kind (a string's, an array's). */
const SAME_KIND_RESULTS = new Set(['trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'normalize', 'padStart', 'padEnd', 'repeat']);
for (const m of ['replace', 'replaceAll', 'slice', 'substring', 'concat', 'filter', 'map', 'flat', 'flatMap', 'toSorted', 'toReversed'])
  SAME_KIND_RESULTS.add(m);

/** How deep module functions are followed into the functions they call. */
const MAX_DEPTH = 4;

/** Whether a statement of the handler only derives values. */
export function statementPurity(statement: Statement, scope: PurityScope): Purity {
  const checker = new Checker(scope);
  const blocker = checker.statement(statement, new Frame(undefined, undefined));
  return blocker ? { blocker, calls: [] } : { calls: checker.calls };
}

/** Whether an expression of the handler only derives values. */
export function expressionPurity(expression: Node, scope: PurityScope): Purity {
  const checker = new Checker(scope);
  const blocker = checker.expression(expression, new Frame(undefined, undefined));
  return blocker ? { blocker, calls: [] } : { calls: checker.calls };
}

/** Whether a value made by `init` is a new object nothing else holds (a local holding it may be changed). */
export function isFreshValue(init: Node): boolean {
  switch (init.type) {
    case 'ObjectExpression':
    case 'ArrayExpression':
    case 'NewExpression':
      return true;
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'ParenthesizedExpression':
      return isFreshValue(init.expression);
    case 'ConditionalExpression':
      return isFreshValue(init.consequent) && isFreshValue(init.alternate);
    case 'CallExpression': {
      const callee = init.callee;
      const name = callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' ? callee.property.name : undefined;
      return (name !== undefined && FRESH_RESULTS.has(name)) || (callee.type === 'Identifier' && callee.name === 'structuredClone');
    }
    default:
      return false;
  }
}

/**
 * The names code nested in a handler statement declares, as the checker walks it: a block's,
 * a callback's parameters, a module function's. `fn`: the function whose body it is (none for
 * the handler's own code); names it does not declare are looked up around it.
 */
/** What the checker knows of a name the code declares: a value, an object the code made, or JSON read from an argument. */
type Own = 'value' | 'fresh' | 'json';

class Frame {
  readonly names = new Map<string, Own>();

  constructor(
    readonly parent: Frame | undefined,
    readonly fn: FunctionNode | undefined,
  ) {}

  lookup(name: string): Own | undefined {
    return this.names.get(name) ?? this.parent?.lookup(name);
  }

  /** Inside a function being shown pure (its free names are the module's, not the handler's). */
  get inFunction(): boolean {
    return this.fn !== undefined || (this.parent?.inFunction ?? false);
  }

  /** The innermost function being shown pure. */
  get function(): FunctionNode | undefined {
    return this.fn ?? this.parent?.function;
  }

  declare(pattern: Node, own: Own): void {
    for (const b of boundNames(pattern)) this.names.set(b.name, own);
  }
}

type Blocker = Node | undefined;

class Checker {
  readonly calls: Purity['calls'] = [];
  /** Module functions being shown pure (a recursive one is taken as it is shown). */
  private readonly showing = new Set<FunctionNode>();
  private readonly shown = new Map<FunctionNode, boolean>();

  constructor(private readonly scope: PurityScope) {}

  statements(list: readonly Statement[], frame: Frame): Blocker {
    for (const s of list) {
      const blocker = this.statement(s, frame);
      if (blocker) return blocker;
    }
    return undefined;
  }

  statement(s: Statement, frame: Frame): Blocker {
    switch (s.type) {
      case 'VariableDeclaration':
        return this.declaration(s, frame);
      case 'ExpressionStatement':
        return this.expression(s.expression, frame);
      case 'IfStatement':
        return this.expression(s.test, frame) ?? this.nested(s.consequent, frame) ?? (s.alternate ? this.nested(s.alternate, frame) : undefined);
      case 'BlockStatement':
        return this.statements(s.body, new Frame(frame, undefined));
      case 'ReturnStatement':
      case 'ThrowStatement':
        return s.argument ? this.expression(s.argument, frame) : undefined;
      case 'ForOfStatement':
      case 'ForInStatement':
        return this.forEach(s, frame);
      case 'ForStatement':
        return this.forLoop(s, frame);
      case 'SwitchStatement':
        return this.switchStatement(s, frame);
      case 'BreakStatement':
      case 'ContinueStatement':
        return s.label ? s : undefined;
      case 'EmptyStatement':
        return undefined;
      default:
        return s;
    }
  }

  private nested(s: Statement, frame: Frame): Blocker {
    return this.statement(s, new Frame(frame, undefined));
  }

  private declaration(s: Extract<Statement, { type: 'VariableDeclaration' }>, frame: Frame): Blocker {
    if (s.kind !== 'const' && s.kind !== 'let') return s;
    for (const d of s.declarations) {
      const blocker = this.pattern(d.id, frame) ?? (d.init ? this.expression(d.init, frame) : undefined);
      if (blocker) return blocker;
      frame.declare(d.id, d.init && isFreshValue(d.init) ? 'fresh' : d.init && this.fromArgument(d.init, frame) ? 'json' : 'value');
    }
    return undefined;
  }

  /** A binding pattern's defaults and computed keys. */
  private pattern(id: Node, frame: Frame): Blocker {
    let blocker: Blocker;
    walk(id, (node) => {
      if (blocker) return false;
      if (node.type === 'AssignmentPattern') blocker = this.expression(node.right, frame);
      if (node.type === 'ObjectProperty' && node.computed) blocker = this.expression(node.key, frame);
      return undefined;
    });
    return blocker;
  }

  private forEach(s: Extract<Statement, { type: 'ForOfStatement' | 'ForInStatement' }>, frame: Frame): Blocker {
    if (s.type === 'ForOfStatement' && s.await) return s;
    const inner = new Frame(frame, undefined);
    const left = s.left;
    // An item of an argument's array (or a key of its object) is JSON too.
    const item = this.fromArgument(s.right, frame) ? 'json' : 'value';
    if (left.type === 'VariableDeclaration') {
      if (left.kind === 'var') return left;
      for (const d of left.declarations) inner.declare(d.id, item);
    } else if (!this.assignable(left, frame)) return left;
    return this.expression(s.right, frame) ?? this.statement(s.body, inner);
  }

  private forLoop(s: Extract<Statement, { type: 'ForStatement' }>, frame: Frame): Blocker {
    const inner = new Frame(frame, undefined);
    const init = s.init;
    const blocker = init ? (init.type === 'VariableDeclaration' ? this.declaration(init, inner) : this.expression(init, inner)) : undefined;
    return (
      blocker ??
      (s.test ? this.expression(s.test, inner) : undefined) ??
      (s.update ? this.expression(s.update, inner) : undefined) ??
      this.statement(s.body, new Frame(inner, undefined))
    );
  }

  private switchStatement(s: Extract<Statement, { type: 'SwitchStatement' }>, frame: Frame): Blocker {
    const blocker = this.expression(s.discriminant, frame);
    if (blocker) return blocker;
    const inner = new Frame(frame, undefined);
    for (const c of s.cases) {
      const found = (c.test ? this.expression(c.test, inner) : undefined) ?? this.statements(c.consequent, inner);
      if (found) return found;
    }
    return undefined;
  }

  expression(e: Node, frame: Frame): Blocker {
    switch (e.type) {
      case 'Identifier':
        return this.read(e, frame);
      case 'ThisExpression':
      case 'StringLiteral':
      case 'NumericLiteral':
      case 'BooleanLiteral':
      case 'NullLiteral':
      case 'BigIntLiteral':
      case 'RegExpLiteral':
        return undefined;
      case 'TemplateLiteral':
        return this.all(e.expressions, frame);
      case 'MemberExpression':
      case 'OptionalMemberExpression':
        return this.member(e, frame);
      case 'ObjectExpression':
        return this.object(e, frame);
      case 'ArrayExpression':
        return this.all(
          e.elements.filter((x): x is NonNullable<typeof x> => x !== null),
          frame,
        );
      case 'SpreadElement':
        return this.expression(e.argument, frame);
      case 'ArrowFunctionExpression':
      case 'FunctionExpression':
        return this.made(e, frame);
      case 'UnaryExpression':
        return e.operator === 'delete' ? this.change(e.argument, frame, e) : this.expression(e.argument, frame);
      case 'BinaryExpression':
      case 'LogicalExpression':
        return this.expression(e.left, frame) ?? this.expression(e.right, frame);
      case 'ConditionalExpression':
        return this.expression(e.test, frame) ?? this.expression(e.consequent, frame) ?? this.expression(e.alternate, frame);
      case 'SequenceExpression':
        return this.all(e.expressions, frame);
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
      case 'TSInstantiationExpression':
      case 'ParenthesizedExpression':
      case 'AwaitExpression':
        return this.expression('expression' in e ? e.expression : e.argument, frame);
      case 'AssignmentExpression':
        return (
          this.expression(e.right, frame) ??
          (e.left.type === 'Identifier' || !/Pattern$/.test(e.left.type) ? this.change(e.left, frame, e) : this.patternChange(e.left, frame))
        );
      case 'UpdateExpression':
        return this.change(e.argument, frame, e);
      case 'CallExpression':
      case 'OptionalCallExpression':
        return this.call(e, frame);
      case 'NewExpression':
        return this.construction(e, frame);
      case 'ImportExpression':
        return this.moduleLoad(e, e.source);
      default:
        return e;
    }
  }

  private all(nodes: readonly Node[], frame: Frame): Blocker {
    for (const n of nodes) {
      const blocker = this.expression(n, frame);
      if (blocker) return blocker;
    }
    return undefined;
  }

  /** A name read: the code's own, or one the handler or the module says may be read again. */
  private read(id: Extract<Node, { type: 'Identifier' }>, frame: Frame): Blocker {
    if (frame.lookup(id.name) || frame.inFunction) return undefined;
    const role = this.scope.handlerName(id.name);
    // The context itself may be handed anywhere; its members are read in member().
    return role === 'local' || role === 'context' ? id : undefined;
  }

  /** `a.b.c`, `a?.[k]`: a read, unless it reads what belongs to one request (`ctx.mcpReq.id`). */
  private member(e: Extract<Node, { type: 'MemberExpression' | 'OptionalMemberExpression' }>, frame: Frame): Blocker {
    if (e.computed) {
      const blocker = this.expression(e.property, frame);
      if (blocker) return blocker;
    }
    const object = e.object;
    if (object.type === 'Identifier' && !frame.lookup(object.name) && !frame.inFunction && this.scope.handlerName(object.name) === 'context') return undefined;
    if (object.type === 'Super') return object;
    const blocker = this.expression(object, frame);
    if (blocker) return blocker;
    return this.requestBound(e, frame) ? e : undefined;
  }

  /** A member of the context (at any depth) that belongs to its request. */
  private requestBound(e: Node, frame: Frame): boolean {
    let n: Node = e;
    const names: string[] = [];
    while (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') {
      if (!n.computed && n.property.type === 'Identifier') names.push(n.property.name);
      n = n.object;
    }
    if (n.type !== 'Identifier' || frame.lookup(n.name) || frame.inFunction) return false;
    const role = this.scope.handlerName(n.name);
    // A low-level handler's request: its `_meta` (the progress token) is the retry's too.
    // A parameter may be a context: its request-bound members are refused as a context's are.
    if (role === 'context' || role === 'parameter') return names.some((name) => REQUEST_BOUND.has(name));
    return role === 'argument' && names.includes('_meta');
  }

  private object(e: Extract<Node, { type: 'ObjectExpression' }>, frame: Frame): Blocker {
    for (const p of e.properties) {
      const blocker =
        p.type === 'SpreadElement'
          ? this.expression(p.argument, frame)
          : p.type === 'ObjectMethod'
            ? this.made(p, frame)
            : ((p.computed ? this.expression(p.key, frame) : undefined) ?? this.expression(p.value, frame));
      if (blocker) return blocker;
    }
    return undefined;
  }

  /** A function made, not called: nothing runs, but what it captures must be there on every entry. */
  private made(fn: FunctionNode, frame: Frame): Blocker {
    if (frame.inFunction) return undefined;
    const own = new Set<string>();
    walk(fn, (node) => {
      if (node.type === 'VariableDeclarator') for (const b of boundNames(node.id)) own.add(b.name);
      if (isFunction(node)) for (const p of node.params) for (const b of boundNames(p)) own.add(b.name);
      if (node.type === 'CatchClause' && node.param) for (const b of boundNames(node.param)) own.add(b.name);
      return undefined;
    });
    let blocker: Blocker;
    walk(fn, (node, parents) => {
      if (blocker) return false;
      const parent = parents[parents.length - 1];
      if (node.type !== 'Identifier' || own.has(node.name) || frame.lookup(node.name) || (parent && isNonReferencePosition(node, parent))) return undefined;
      if (this.scope.handlerName(node.name) === 'local') blocker = node;
      return undefined;
    });
    return blocker;
  }

  /** A change of `target` (assigned, updated, deleted from): only of the code's own names, or of an object it made. */
  private change(target: Node, frame: Frame, at: Node): Blocker {
    if (target.type === 'Identifier') return this.ownName(target.name, frame) ? undefined : at;
    if (target.type !== 'MemberExpression' && target.type !== 'OptionalMemberExpression') return at;
    const blocker = this.member(target, frame);
    if (blocker) return blocker;
    return this.madeHere(target, frame) ? undefined : at;
  }

  /** Whether a name may be assigned: one the code declares, or a local the handler derives again. */
  private ownName(name: string, frame: Frame): boolean {
    if (frame.lookup(name)) return true;
    const role = frame.inFunction ? undefined : this.scope.handlerName(name);
    return role === 'derived' || role === 'fresh';
  }

  /** `({ a, b } = x)`: every name it assigns must be the code's own. */
  private patternChange(pattern: Node, frame: Frame): Blocker {
    if (boundNames(pattern).some((b) => !this.ownName(b.name, frame))) return pattern;
    return this.pattern(pattern, frame);
  }

  /** Whether the object a member chain starts at is one the code made itself. */
  private madeHere(member: Node, frame: Frame): boolean {
    let n = member;
    while (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') n = n.object;
    if (n.type !== 'Identifier') return false;
    const own = frame.lookup(n.name);
    if (own) return own === 'fresh';
    return !frame.inFunction && this.scope.handlerName(n.name) === 'fresh';
  }

  private call(e: Extract<Node, { type: 'CallExpression' | 'OptionalCallExpression' }>, frame: Frame): Blocker {
    const callee = e.callee;
    if (this.scope.declaredIdempotent(e)) return this.calleeRead(callee, frame) ?? this.all(e.arguments, frame) ?? this.note(e, 'declared');
    if (callee.type === 'Identifier') return this.functionCall(e, callee, frame);
    if (callee.type === 'Import') return this.moduleLoad(e, e.arguments[0]);
    if ((callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') || callee.computed || callee.property.type !== 'Identifier')
      return e;
    const method = callee.property.name;
    const object = callee.object;
    // `server.getClientCapabilities()` in a handler's own code: a read of the request's capabilities, once rewritten.
    if (this.scope.requestCapabilities && !frame.inFunction && isConnectionCapabilitiesRead(e)) return this.expression(object, frame) ?? this.note(e, 'read');
    // `f.bind(x)`: a copy of the function, nothing runs.
    if (method === 'bind') return this.expression(object, frame) ?? this.all(e.arguments, frame) ?? this.note(e, 'read');
    // `Array.from(xs, f)`, `JSON.parse(text, reviver)`: a function handed to them is called.
    if (object.type === 'Identifier' && this.isGlobal(object.name, frame) && PURE_STATICS[object.name]?.has(method))
      return (
        this.all(
          e.arguments.filter((a) => !isFunction(a)),
          frame,
        ) ?? this.firstBlocker(e.arguments, (a) => (isFunction(a) ? this.body(a, frame) : undefined))
      );
    if (MUTATORS.has(method) && this.madeHere(object, frame)) return this.expression(object, frame) ?? this.all(e.arguments, frame);
    if (!this.methodReads(object, method, frame)) return e;
    const items = this.fromArgument(object, frame) ? 'json' : 'value';
    const blocker = this.expression(object, frame) ?? this.callbackArguments(e.arguments, CALLBACK_METHODS.has(method), frame, items);
    return blocker ?? this.note(e, 'read');
  }

  /** `import('./m.js')`: loaded once, the same module on every later call (a specifier computed at run time may name another). */
  private moduleLoad(e: Node, specifier: Node | undefined): Blocker {
    return specifier?.type === 'StringLiteral' ? this.note(e, 'read') : e;
  }

  /** Whether a method of a value only reads it: an argument's (JSON), or a standard-library value's. */
  private methodReads(object: Node, method: string, frame: Frame): boolean {
    // `x.trim().toUpperCase()`, `xs.filter(f).map(g)`: the first call gives a value of x's own kind.
    const callee = object.type === 'CallExpression' || object.type === 'OptionalCallExpression' ? object.callee : undefined;
    if (callee && (callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') && !callee.computed) {
      const inner = callee.property.type === 'Identifier' ? callee.property.name : '';
      if (SAME_KIND_RESULTS.has(inner) && this.methodReads(callee.object, method, frame)) return true;
    }
    return (JSON_READ_ONLY_METHODS.has(method) && this.fromArgument(object, frame)) || this.scope.readsOnly(object, method);
  }

  /** A value read from an argument (`args.items`, `id.trim().split(',')`): JSON, or what a read-only method made of it. */
  private fromArgument(node: Node, frame: Frame): boolean {
    switch (node.type) {
      case 'Identifier': {
        const own = frame.lookup(node.name);
        return own ? own === 'json' : !frame.inFunction && this.scope.handlerName(node.name) === 'argument';
      }
      case 'MemberExpression':
      case 'OptionalMemberExpression':
      case 'TSNonNullExpression':
      case 'TSAsExpression':
        return this.fromArgument('object' in node ? node.object : node.expression, frame);
      case 'CallExpression':
      case 'OptionalCallExpression': {
        const callee = node.callee;
        const member = callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression' ? callee : undefined;
        const method = member && !member.computed && member.property.type === 'Identifier' ? member.property.name : undefined;
        return method !== undefined && JSON_READ_ONLY_METHODS.has(method) && this.fromArgument(member!.object, frame);
      }
      default:
        return false;
    }
  }

  /** The arguments of a read-only method: a function it calls must be shown pure. */
  private callbackArguments(args: readonly Node[], calls: boolean, frame: Frame, items: Own): Blocker {
    for (const [i, arg] of args.entries()) {
      const called = calls && i === 0;
      const blocker = !called
        ? this.expression(arg, frame)
        : arg.type === 'ArrowFunctionExpression' || arg.type === 'FunctionExpression'
          ? this.body(arg, frame, items)
          : arg.type === 'Identifier' && this.moduleFunction(arg.name, frame)
            ? undefined
            : arg;
      if (blocker) return blocker;
    }
    return undefined;
  }

  /** `f(x)`: a global that only computes, or a module function shown pure. */
  private functionCall(
    e: Extract<Node, { type: 'CallExpression' | 'OptionalCallExpression' }>,
    callee: Extract<Node, { type: 'Identifier' }>,
    frame: Frame,
  ): Blocker {
    const args = this.all(e.arguments, frame);
    if (args) return args;
    if (this.isGlobal(callee.name, frame) && PURE_GLOBAL_CALLS.has(callee.name)) return undefined;
    return this.moduleFunction(callee.name, frame) ? this.note(e, 'pure-function') : e;
  }

  /** Whether `name` means a function declared outside the handler whose body is shown pure. */
  private moduleFunction(name: string, frame: Frame): boolean {
    if (frame.lookup(name) || (!frame.inFunction && this.scope.handlerName(name) !== undefined)) return false;
    const fn = this.scope.functionNamed(name, frame.function);
    if (!fn) return false;
    const known = this.shown.get(fn);
    if (known !== undefined) return known;
    if (this.showing.has(fn)) return true;
    if (this.showing.size >= MAX_DEPTH) return false;
    this.showing.add(fn);
    const calls = this.calls.length;
    const pure = this.body(fn, undefined) === undefined;
    this.calls.length = calls; // what runs inside is the function's, reported as one call
    this.showing.delete(fn);
    this.shown.set(fn, pure);
    return pure;
  }

  /**
   * A function's body run: pure given its parameters. `frame`: where a callback is written
   * (none for a module function); `params`: what its parameters hold (an argument's items).
   */
  private body(fn: FunctionNode, frame: Frame | undefined, params: Own = 'value'): Blocker {
    if (fn.generator || (fn.type === 'ObjectMethod' && fn.kind !== 'method')) return fn;
    const inner = new Frame(frame, frame ? undefined : fn);
    for (const p of fn.params) {
      const blocker = this.pattern(p, inner);
      if (blocker) return blocker;
      inner.declare(p, params);
    }
    const body = fn.body;
    return body.type === 'BlockStatement' ? this.statements(body.body, inner) : this.expression(body, inner);
  }

  private construction(e: Extract<Node, { type: 'NewExpression' }>, frame: Frame): Blocker {
    const callee = e.callee;
    const pure = callee.type === 'Identifier' && this.isGlobal(callee.name, frame) && PURE_CONSTRUCTORS.has(callee.name);
    if (!pure || (callee.name === 'Date' && e.arguments.length === 0)) return e;
    return this.all(e.arguments, frame);
  }

  /** The function a declared-idempotent call calls must be there on every entry. */
  private calleeRead(callee: Node, frame: Frame): Blocker {
    return callee.type === 'Identifier' && (frame.inFunction || this.scope.handlerName(callee.name) === undefined) ? undefined : this.expression(callee, frame);
  }

  private isGlobal(name: string, frame: Frame): boolean {
    return !frame.lookup(name) && !this.scope.declaredInModule(name);
  }

  private assignable(left: Node, frame: Frame): boolean {
    return left.type === 'Identifier' && this.change(left, frame, left) === undefined;
  }

  private firstBlocker<T>(items: readonly T[], check: (item: T) => Blocker): Blocker {
    for (const item of items) {
      const blocker = check(item);
      if (blocker) return blocker;
    }
    return undefined;
  }

  private note(node: Node, why: RerunWhy): undefined {
    this.calls.push({ node, why });
    return undefined;
  }
}
