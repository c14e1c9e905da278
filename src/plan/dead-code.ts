// Declarations the migration leaves unused: an import of `ElicitResultSchema` the legacy call
// passed, an alias of the push API (`const elicit = server.server.elicitInput.bind(...)`, a
// destructured `send`, `const app = { mcp }`), a private field holding the low-level server,
// and, once those go, the type they named. A declaration is dead when every reference to it
// lay in text the migration replaces (a migrated call, a split helper, a URL throw) whose
// replacement does not name it. One that was unused before is not the migration's to remove.
import type { Node, Program, Statement } from '@babel/types';
import { TS_TYPES } from '../analyse/babel.cjs';
import { boundNames, forEachNode, hasSideEffects } from '../analyse/ast.ts';
import { lineEndOf, lineStartOf, lineTail, startsLine } from './text.ts';
import type { Edit, Span } from './types.ts';

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
  own: Span[];
  /** What removing it takes: an import specifier, or statements. */
  removal: { import: Extract<Node, { type: 'ImportDeclaration' }>; local: string } | { statements: Statement[] };
}

/**
 * The dead declarations of `program` once `replaced` is replaced. `bodies`: the migrated
 * handler bodies (a statement there is left out by the renderer, when it is one of
 * `renderable`, the statements the renderer writes one by one).
 */
export function deadDeclarations(source: string, program: Program, replaced: readonly Replaced[], bodies: readonly Span[], renderable: ReadonlySet<number>): DeadCode {
  const candidates = candidatesOf(program, bodies, renderable);
  const result: DeadCode = { edits: [], importDrops: new Map(), inBodies: new Set() };
  if (candidates.length === 0 || replaced.length === 0) return result;
  const occurrences = identifierOccurrences(program, new Set(candidates.flatMap((c) => c.names)));
  const removed: Span[] = [];
  const dead = new Set<Candidate>();
  const inside = (at: number, spans: readonly Span[]) => spans.some((s) => s.start <= at && at < s.end);
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of candidates) {
      if (dead.has(c)) continue;
      const gone = c.names.every((name) => {
        const refs = (occurrences.get(name) ?? []).filter((at) => !inside(at, c.own));
        // The name, not a property of that name (`inputRequired.elicit` does not name `elicit`; `...elicit` does).
        const word = new RegExp(`(?<![\\w$#])(?<!(?<!\\.\\.)\\.)${name.replace(/[$]/g, '\\$')}(?![\\w$])`);
        const dropped = (at: number) => replaced.some((r) => r.start <= at && at < r.end && !word.test(r.text)) || inside(at, removed);
        return refs.length > 0 && refs.every(dropped);
      });
      if (!gone) continue;
      dead.add(c);
      if ('statements' in c.removal) removed.push(...c.removal.statements.map((s) => ({ start: s.start!, end: s.end! })));
      else removed.push(...c.own);
      changed = true;
    }
  }

  for (const c of dead) {
    if ('import' in c.removal) {
      const drops = result.importDrops.get(c.removal.import.start!) ?? new Set<string>();
      drops.add(c.removal.local);
      result.importDrops.set(c.removal.import.start!, drops);
      continue;
    }
    for (const statement of c.removal.statements) {
      if (inside(statement.start!, bodies)) result.inBodies.add(statement.start!);
      else result.edits.push(removeStatement(source, statement));
    }
  }
  return result;
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

/** Imports, aliases (one declarator, nothing to run) and private fields (written only with `this.#x = value`). */
function candidatesOf(program: Program, bodies: readonly Span[], renderable: ReadonlySet<number>): Candidate[] {
  const out: Candidate[] = [];
  forEachNode(program, (node) => {
    // Nothing below a type declares a value.
    if (TS_TYPES.has(node.type)) return false;
    if (node.type === 'ImportDeclaration') {
      for (const spec of node.specifiers) out.push({ names: [spec.local.name], own: [{ start: spec.start!, end: spec.end! }], removal: { import: node, local: spec.local.name } });
      return false;
    }
    if (node.type === 'VariableDeclaration' && node.declarations.length === 1) {
      const [d] = node.declarations;
      const inBody = bodies.some((b) => b.start <= node.start! && node.end! <= b.end);
      const simplePattern = d!.id.type === 'Identifier' || (d!.id.type === 'ObjectPattern' && d!.id.properties.every((p) => p.type === 'ObjectProperty' && p.shorthand));
      if (simplePattern && d!.init && isInert(d!.init) && (!inBody || renderable.has(node.start!))) {
        out.push({ names: boundNames(d!.id).map((b) => b.name), own: [{ start: node.start!, end: node.end! }], removal: { statements: [node] } });
      }
    }
    if (node.type === 'ClassBody') {
      for (const member of node.body) {
        if (member.type !== 'ClassPrivateProperty' || member.static || (member.value && !isInert(member.value))) continue;
        const name = member.key.id.name;
        const writes = fieldWrites(node, name);
        out.push({ names: [`#${name}`], own: [member, ...writes].map((s) => ({ start: s.start!, end: s.end! })), removal: { statements: [member as unknown as Statement, ...writes] } });
      }
    }
    return undefined;
  });
  return out;
}

/** Statements `this.#name = <nothing to run>;` in a class body's methods. */
function fieldWrites(body: Node, name: string): Statement[] {
  const writes: Statement[] = [];
  forEachNode(body, (node) => {
    if (node.type === 'ExpressionStatement' && node.expression.type === 'AssignmentExpression' && node.expression.operator === '=') {
      const left = node.expression.left;
      if (left.type === 'MemberExpression' && left.object.type === 'ThisExpression' && left.property.type === 'PrivateName' && left.property.id.name === name && isInert(node.expression.right)) {
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

/**
 * Removes a statement: its whole lines when it has them to itself, and the blank line after it
 * when it opened its block (a block does not start with a blank line).
 */
function removeStatement(source: string, statement: Node): Edit {
  const start = statement.start!;
  const end = statement.end!;
  if (!startsLine(source, start) || lineTail(source, end) !== '') return { start, end, text: '' };
  const from = lineStartOf(source, start);
  let to = Math.min(lineEndOf(source, end) + 1, source.length);
  const opensBlock = /\{\s*$/.test(source.slice(lineStartOf(source, from - 1), from).trimEnd());
  const blankAfter = /^[ \t]*\r?\n/.exec(source.slice(to));
  if (opensBlock && blankAfter) to += blankAfter[0].length;
  return { start: from, end: to, text: '' };
}
