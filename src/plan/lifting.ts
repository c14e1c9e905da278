// What the code around a question says about a local that lives across it, beyond its type:
// whether a guard before the question narrowed its type (`if (!note) return ...`), and whether
// the code after the question changes an object the local only refers to (a JSON copy in
// requestState would silently lose that change).
import type { Node } from '@babel/types';
import { boundNames, referencedNames, walk } from '../analyse/ast.ts';
import { alwaysExits, type Frame, type LocatedRound } from './body-tree.ts';
import type { Declared } from './liveness.ts';

/** What runs before the question on its way from the handler body (conservatively: a loop around it, whole). */
function before(round: LocatedRound): Node[] {
  const out: Node[] = [];
  round.frames.forEach((frame, k) => {
    out.push(...frame.list.slice(0, frame.index));
    const c = frame.compound;
    if (!c || k === round.frames.length - 1) return;
    if (/^(For|ForIn|ForOf|While|DoWhile)Statement$/.test(c.type)) out.push(c);
    else if (c.type === 'IfStatement') out.push(c.test);
    else if (c.type === 'SwitchStatement') out.push(c.discriminant, ...c.cases.flatMap((s) => (s.test ? [s.test] : [])));
    else if (c.type === 'TryStatement' && frame.role !== 'try') out.push(c.block, ...(frame.role === 'finally' && c.handler ? [c.handler.body] : []));
  });
  return out;
}

/** What may run after the question: the rest of each enclosing list, a loop around it again, the catch and finally around it. */
function after(round: LocatedRound): Node[] {
  const out: Node[] = [];
  round.frames.forEach((frame) => {
    out.push(...frame.list.slice(frame.index + 1));
    const c = frame.compound;
    if (!c) return;
    if (/^(For|ForIn|ForOf|While|DoWhile)Statement$/.test(c.type)) out.push(c);
    if (c.type === 'TryStatement') {
      if (frame.role === 'try' && c.handler) out.push(c.handler.body);
      if (frame.role !== 'finally' && c.finalizer) out.push(c.finalizer);
    }
  });
  return out;
}

/**
 * What the code around a question does, walked once per question: the names assigned before
 * it; after it, the first change of what each name refers to, and the reads of a context's
 * request (`<ctx>.mcpReq.id`, its `_meta`, its `signal`), by the context's name.
 */
interface Around {
  assignedBefore: Set<string>;
  changedAfter: Map<string, Node>;
  requestReads: Array<{ ctx: string; text: string }>;
}

// The last question's only (its locals are asked about one after another): a WeakMap kept
// each file's tree alive through young-generation collections, which the run paid for.
let last: { round: LocatedRound; source: string; around: Around } | undefined;

function around(round: LocatedRound, source: string): Around {
  if (last?.round === round && last.source === source) return last.around;
  last = { round, source, around: { assignedBefore: assignedBefore(round), ...changesAfter(round, source) } };
  return last.around;
}

function assignedBefore(round: LocatedRound): Set<string> {
  const assigned = new Set<string>();
  for (const n of before(round)) {
    walk(n, (node) => {
      if (node.type === 'AssignmentExpression') for (const b of boundNames(node.left as Node)) assigned.add(b.name);
      if (node.type === 'UpdateExpression' && node.argument.type === 'Identifier') assigned.add(node.argument.name);
      return undefined;
    });
  }
  return assigned;
}

function changesAfter(round: LocatedRound, source: string): Pick<Around, 'changedAfter' | 'requestReads'> {
  const changedAfter = new Map<string, Node>();
  const requestReads: Around['requestReads'] = [];
  const changes = (root: string | undefined, node: Node) => {
    if (root !== undefined && !changedAfter.has(root)) changedAfter.set(root, node);
  };
  const member = (m: Node) => (m.type === 'MemberExpression' || m.type === 'OptionalMemberExpression' ? rootName(m) : undefined);
  for (const n of [...after(round), ...(round.inline ? [round.statement] : [])]) {
    walk(n, (node) => {
      if (node.type === 'AssignmentExpression') changes(member(node.left as Node), node);
      else if (node.type === 'UpdateExpression') changes(member(node.argument), node);
      else if (node.type === 'UnaryExpression' && node.operator === 'delete') changes(member(node.argument), node);
      else if (
        (node.type === 'CallExpression' || node.type === 'OptionalCallExpression') &&
        (node.callee.type === 'MemberExpression' || node.callee.type === 'OptionalMemberExpression') &&
        !node.callee.computed &&
        node.callee.property.type === 'Identifier' &&
        MUTATORS.has(node.callee.property.name)
      )
        changes(rootName(node.callee.object), node);
      else if (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') {
        const read = requestRead(node, source);
        if (read) {
          requestReads.push(read);
          return false;
        }
      }
      return undefined;
    });
  }
  return { changedAfter, requestReads };
}

/** `<ctx>.mcpReq.id` and the other reads of a context's request (REQUEST_BOUND), by the context's name. */
function requestRead(
  node: Extract<Node, { type: 'MemberExpression' | 'OptionalMemberExpression' }>,
  source: string,
): Around['requestReads'][number] | undefined {
  if (node.computed || node.property.type !== 'Identifier' || !REQUEST_BOUND.has(node.property.name)) return undefined;
  const req = node.object;
  if (
    (req.type === 'MemberExpression' || req.type === 'OptionalMemberExpression') &&
    !req.computed &&
    req.property.type === 'Identifier' &&
    req.property.name === 'mcpReq' &&
    req.object.type === 'Identifier'
  )
    return { ctx: req.object.name, text: source.slice(node.start!, node.end!).replace(/\s+/g, '') };
  return undefined;
}

/** `!x`, `x == null`, `x === undefined`, `typeof x === 'undefined'`: true when `x` is nullish (or falsy). */
function testsNullish(test: Node, name: string): boolean {
  const isName = (n: Node) => n.type === 'Identifier' && n.name === name;
  const isNullish = (n: Node) => (n.type === 'Identifier' && n.name === 'undefined') || n.type === 'NullLiteral';
  if (test.type === 'UnaryExpression' && test.operator === '!') return isName(test.argument);
  if (test.type === 'LogicalExpression' && test.operator === '||') return testsNullish(test.left, name) || testsNullish(test.right, name);
  if (test.type === 'BinaryExpression' && (test.operator === '==' || test.operator === '===')) {
    const [a, b] = [test.left as Node, test.right];
    if ((isName(a) && isNullish(b)) || (isName(b) && isNullish(a))) return true;
    const typeofName = (n: Node) => n.type === 'UnaryExpression' && n.operator === 'typeof' && isName(n.argument);
    const undefinedText = (n: Node) => n.type === 'StringLiteral' && n.value === 'undefined';
    return (typeofName(a) && undefinedText(b)) || (typeofName(b) && undefinedText(a));
  }
  return false;
}

/** The names an `if` without else whose branch always leaves rules null and undefined out for after it (`if (!note) return ...`). */
export function nullChecked(statement: Node): string[] {
  if (statement.type !== 'IfStatement' || statement.alternate || !alwaysExits(statement.consequent)) return [];
  return [...referencedNames(statement.test)].filter((name) => testsNullish(statement.test, name));
}

/** `x`, `x != null`, `x !== undefined`, `x && ...`: true only when `x` is not nullish. */
function testsPresent(test: Node, name: string): boolean {
  const isName = (n: Node) => n.type === 'Identifier' && n.name === name;
  const isNullish = (n: Node) => (n.type === 'Identifier' && n.name === 'undefined') || n.type === 'NullLiteral';
  if (isName(test)) return true;
  if (test.type === 'LogicalExpression' && test.operator === '&&') return testsPresent(test.left, name) || testsPresent(test.right, name);
  if (test.type === 'BinaryExpression' && (test.operator === '!=' || test.operator === '!==')) {
    const [a, b] = [test.left as Node, test.right];
    return (isName(a) && isNullish(b)) || (isName(b) && isNullish(a));
  }
  return false;
}

/**
 * The type of a local at the question, where a guard before it ruled out `undefined` and
 * `null` (`if (!note) return ...;`, or the question inside `if (note) { ... }`): the restored
 * local keeps that narrowing, so the code after the question typechecks as it did.
 */
export function narrowedAtQuestion(typeText: string, name: string, mutable: boolean, round: LocatedRound, source: string): string {
  const members = unionMembers(typeText);
  if (!members.some((m) => m === 'undefined' || m === 'null') || members.every((m) => m === 'undefined' || m === 'null')) return typeText;
  // A `let` may be assigned again after its guard.
  if (mutable && around(round, source).assignedBefore.has(name)) return typeText;
  return narrowedInFrames(typeText, name, round.frames);
}

/** A const's type without `undefined` and `null` when a guard on the way to the question rules them out. */
export function narrowedInFrames(typeText: string, name: string, frames: readonly Frame[]): string {
  const members = unionMembers(typeText);
  if (!members.some((m) => m === 'undefined' || m === 'null') || members.every((m) => m === 'undefined' || m === 'null')) return typeText;
  const guarded = frames.some((frame, k) => {
    const guard = frame.list.slice(0, frame.index).some((s) => nullChecked(s).includes(name));
    const inside = k < frames.length - 1 && frame.compound?.type === 'IfStatement' && frame.role === 'consequent' && testsPresent(frame.compound.test, name);
    return guard || inside;
  });
  return guarded ? members.filter((m) => m !== 'undefined' && m !== 'null').join(' | ') : typeText;
}

/** The members of a union type's text at its top level (`A<B | C> | undefined` → [`A<B | C>`, `undefined`]). */
function unionMembers(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if ('<([{'.includes(ch)) depth++;
    else if ('>)]}'.includes(ch) && !(ch === '>' && text[i - 1] === '=')) depth--;
    else if (ch === '|' && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(text.slice(from).trim());
  return out.filter((m) => m !== '');
}

/** What a context says about the request it came with: a retry is another request, with its own. */
const REQUEST_BOUND = new Set(['id', '_meta', 'signal']);

/** Array and collection methods that change their receiver. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin', 'set', 'add', 'delete', 'clear']);

/** The identifier a member chain starts at (`note` of `note.tags[0].name`). */
function rootName(node: Node): string | undefined {
  let n: Node = node;
  while (n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') n = n.object;
  return n.type === 'Identifier' ? n.name : undefined;
}

/**
 * How the code after the question changes what `name` refers to (`note.tags.push(...)`,
 * `found.paid = true`), when it does and the local was read from something that outlives the
 * call (a Map entry, a cache record, a field): the retry would change the copy carried in
 * requestState, not that object. Undefined for a value the handler made itself (a literal, a
 * fresh array), whose copy is all there is.
 */
export function mutatedAfter(d: Declared, round: LocatedRound, source: string): string | undefined {
  if (d.via !== 'variable' || !d.init || freshValue(d.init)) return undefined;
  const found = around(round, source).changedAfter.get(d.name);
  if (!found) return undefined;
  const text = source.slice(found.start!, found.end!);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** An initialiser whose value the handler made itself: nothing else holds it. */
function freshValue(init: Node): boolean {
  switch (init.type) {
    case 'ObjectExpression':
    case 'ArrayExpression':
    case 'TemplateLiteral':
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'NewExpression':
      return true;
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'ParenthesizedExpression':
      return freshValue(init.expression);
    case 'CallExpression': {
      const callee = init.callee;
      const name =
        callee.type === 'Identifier'
          ? callee.name
          : callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier'
            ? callee.property.name
            : '';
      // Copies: `structuredClone(x)`, `JSON.parse(...)`, `[...].map(...)`, `Object.assign({}, ...)`.
      return [
        'structuredClone',
        'parse',
        'map',
        'filter',
        'slice',
        'concat',
        'flat',
        'flatMap',
        'from',
        'entries',
        'keys',
        'values',
        'toSorted',
        'toReversed',
      ].includes(name);
    }
    default:
      return false;
  }
}

/**
 * Reads, in the code after the question, of what belongs to the request that carried the call
 * (`ctx.mcpReq.id`, its `_meta` and progress token, its `signal`): on the retry that answers
 * the question they are the retry's, not the first call's. Each distinct text once.
 */
export function requestBoundReads(round: LocatedRound, ctxName: string, source: string): string[] {
  return [
    ...new Set(
      around(round, source)
        .requestReads.filter((r) => r.ctx === ctxName)
        .map((r) => r.text),
    ),
  ];
}
