// A request half keeps the helper's code up to its question. A `let x: T;` that only the code
// after the question used (it goes to the result half, and every path of the request half that
// reaches it asks) is then declared and never read: TS6133 under `noUnusedLocals`, and noise in
// the diff. Such a declaration, with no initialiser and no name read or written anywhere else in
// the half, is dropped.
import { parse } from '@babel/parser';
import type { Node } from '@babel/types';
import { boundNames, referencedNames } from '../../analyse/ast.ts';

/** `text` (a function declaration, exported or not) without the top-level `let` declarations its body never uses again. */
export function withoutUnreadLets(text: string): string {
  if (!/^\s*let /m.test(text)) return text;
  let program: Node;
  try {
    program = parse(text, { sourceType: 'module', plugins: ['typescript'] }).program;
  } catch {
    return text;
  }
  const statement = program.type === 'Program' ? program.body[0] : undefined;
  const fn = statement?.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
  if (fn?.type !== 'FunctionDeclaration') return text;
  const unread = fn.body.body.filter(
    (s) =>
      s.type === 'VariableDeclaration' &&
      s.kind === 'let' &&
      s.declarations.every((d) => d.init === null || d.init === undefined) &&
      !fn.body.body.some((other) => other !== s && s.declarations.flatMap((d) => boundNames(d.id)).some((b) => referencedNames(other).has(b.name))),
  );
  let out = text;
  for (const s of unread.reverse()) {
    const start = out.lastIndexOf('\n', s.start! - 1) + 1;
    const end = out.indexOf('\n', s.end!);
    if (out.slice(start, s.start!).trim() !== '' || (end !== -1 && out.slice(s.end!, end).trim() !== '')) continue;
    out = out.slice(0, start) + out.slice(end === -1 ? out.length : end + 1);
  }
  return out;
}
