// Initialize hooks: `server.server.oninitialized = () => {...}` and a `notifications/initialized`
// notification handler. A connection of the 2026-07-28 era never runs initialize, so nothing in
// them runs there: the registrations they make belong where the hook is assigned (start-up),
// while what needs the initialized session (a server push, the session id, a timer set after
// initialize) stays in the hook and runs on the 2025 era only.
import type { ExpressionStatement, Node, Statement } from '@babel/types';
import { boundNames, isFunction, memberPath, referencedNames, someNode, stringValue, type FunctionNode } from './ast.ts';
import type { FileAnalysis } from './analyse-file.ts';
import { namedFunctions } from './file-index.ts';
import { capabilityNames, isRegistrationCall, onlyRegisters, type LocalFunctions } from './registrations.ts';

export interface InitHook {
  /** The statement that sets the hook: start-up code goes right before it. */
  statement: ExpressionStatement;
  fn: FunctionNode;
  /** The hook's statements that only register, reading nothing the session gives: they move to start-up. */
  moves: Statement[];
  /** Calls of functions the codemod cannot see into (another module's), or that register among other things. */
  unknown: Array<{ statement: Statement; callee: string }>;
  /** Whether every statement of the hook moves (then the hook itself goes). */
  emptied: boolean;
}

const INITIALIZED = new Set(['notifications/initialized', 'InitializedNotificationSchema']);

/**
 * `registers`: functions this file imports that the engine has shown only register
 * (engine/hook-registrars.ts), by their local name; a hook's call of one moves like a call of
 * this file's own.
 */
export function findInitHooks(file: FileAnalysis, registers: readonly string[] = []): InitHook[] {
  if (!/oninitialized|notifications\/initialized|InitializedNotificationSchema/.test(file.source)) return [];
  const functions: Map<string, FunctionNode | 'registers'> = namedFunctions(file.index);
  for (const name of registers) if (file.importedNames.has(name) && !functions.has(name)) functions.set(name, 'registers');
  const hooks: InitHook[] = [];
  for (const { node: fn, ancestors } of file.index.functions) {
    const parent = ancestors[ancestors.length - 1];
    const statement = ancestors[ancestors.length - 2];
    if (!parent || statement?.type !== 'ExpressionStatement' || statement.expression !== parent || !isHookSetter(parent, fn)) continue;
    hooks.push(classify(file, statement, fn, functions));
  }
  return hooks;
}

function isHookSetter(parent: Node, fn: FunctionNode): boolean {
  if (parent.type === 'AssignmentExpression')
    return (
      parent.operator === '=' &&
      parent.right === fn &&
      parent.left.type === 'MemberExpression' &&
      !parent.left.computed &&
      parent.left.property.type === 'Identifier' &&
      parent.left.property.name === 'oninitialized'
    );
  if (parent.type !== 'CallExpression' || parent.arguments[1] !== fn || parent.callee.type !== 'MemberExpression') return false;
  const method = memberPath(parent.callee)?.split('.').pop();
  const first = parent.arguments[0]!;
  return method === 'setNotificationHandler' && INITIALIZED.has(stringValue(first) ?? memberPath(first) ?? '');
}

function classify(file: FileAnalysis, statement: ExpressionStatement, fn: FunctionNode, functions: LocalFunctions): InitHook {
  const body: Statement[] =
    fn.body.type === 'BlockStatement'
      ? fn.body.body
      : [{ type: 'ExpressionStatement', expression: fn.body, start: fn.body.start, end: fn.body.end } as ExpressionStatement];
  const names = capabilityNames(body);
  // The hook's own names: a statement that reads one cannot leave it (a capability const only
  // a guard reads goes with the guard).
  const locals = new Set(fn.params.flatMap((p) => boundNames(p).map((b) => b.name)));
  for (const s of body) {
    if (s.type === 'VariableDeclaration') for (const d of s.declarations) for (const b of boundNames(d.id)) locals.add(b.name);
    else if (s.type === 'FunctionDeclaration' && s.id) locals.add(s.id.name);
  }
  const moves: Statement[] = [];
  const unknown: InitHook['unknown'] = [];
  for (const s of body) {
    const reads = [...referencedNames(s)].filter((n) => locals.has(n) && !(s.type === 'IfStatement' && names.has(n)));
    const free = reads.length === 0 && !someNode(s, needsSession, (n) => isFunction(n));
    if (free && onlyRegisters(s, functions, names)) {
      moves.push(s);
      continue;
    }
    const callee = free ? unseenCallee(file, s, functions) : undefined;
    if (callee) unknown.push({ statement: s, callee });
  }
  return { statement, fn, moves, unknown, emptied: moves.length === body.length };
}

/** What only an initialized connection has: an awaited push, the transport and its session id. */
function needsSession(node: Node): boolean {
  if (node.type === 'AwaitExpression' || node.type === 'YieldExpression') return true;
  if ((node.type !== 'MemberExpression' && node.type !== 'OptionalMemberExpression') || node.computed || node.property.type !== 'Identifier') return false;
  return node.property.name === 'transport' || node.property.name === 'sessionId';
}

/**
 * `registerConditionalTools(server)` where the function is imported and handed the server (the
 * codemod cannot see what it does), or is this module's and registers besides doing other
 * things: its name.
 */
function unseenCallee(file: FileAnalysis, s: Statement, functions: LocalFunctions): string | undefined {
  if (s.type !== 'ExpressionStatement' || s.expression.type !== 'CallExpression') return undefined;
  const callee = memberPath(s.expression.callee);
  if (!callee) return undefined;
  const root = callee.split('.')[0]!;
  const imported = file.importedNames.get(root);
  // Only a function handed the server can register on it.
  const handedServer = s.expression.arguments.some((a) => /server$/i.test(memberPath(a)?.split('.').pop() ?? ''));
  if (imported && handedServer && (callee === root || imported.imported === '*')) return callee;
  const local = functions.get(callee);
  return local && local !== 'registers' && someNode(local, isRegistrationCall) ? callee : undefined;
}

/**
 * The imported functions the file's initialize hooks call and hand the server, which the codemod
 * cannot see into from this file: by local name, with the module and export they come from
 * (for the engine to show they only register).
 */
export function hookImports(file: FileAnalysis): Array<{ local: string; from: string; imported: string }> {
  const found = new Map<string, { local: string; from: string; imported: string }>();
  for (const hook of findInitHooks(file)) {
    for (const { callee } of hook.unknown) {
      const imported = file.importedNames.get(callee);
      if (imported && imported.imported !== '*' && imported.imported !== 'default') found.set(callee, { local: callee, ...imported });
    }
  }
  return [...found.values()];
}
