// The user's word that a call may run again on a retry: the codemod cannot show it of a call
// into a database, a connection pool or another module, so such calls run once unless the
// user declares them idempotent. Three ways, each easy to grep for:
//
//   /** @mrtr-idempotent */                      on the function's declaration: every call of it in its module
//   export async function connectionProvider() { ... }
//
//   // @mrtr-idempotent                          on the line above a statement: every call in it
//   const connection = await connectionProvider();
//
//   const c = await /* @mrtr-idempotent */ pool.connect();     right before one call
//
// and `--idempotent NAME` on the command line (a callee as written, `connectionProvider` or
// `db.users.get`; a name without a dot also matches it as a method, `x.getCoreApi()`).
import type { Comment, Node } from '@babel/types';
import { memberPath } from './ast.ts';

export const IDEMPOTENT_TAG = '@mrtr-idempotent';

const TAG = /@mrtr-idempotent(?![\w-])/;

/** Each file's tagged comments, by its list of comments: asked for every handler of the file. */
const TAGGED = new WeakMap<readonly Comment[], readonly Comment[]>();

/** The comments that carry the tag, in order: most files have none, and then nothing is looked up. */
export function idempotentComments(comments: readonly Comment[]): readonly Comment[] {
  let tagged = TAGGED.get(comments);
  if (!tagged) TAGGED.set(comments, (tagged = comments.filter((c) => TAG.test(c.value))));
  return tagged;
}

/**
 * Whether a tagged comment sits right before `start`: nothing but space (and other comments)
 * between, or, before a call, `await` and opening parentheses.
 */
export function taggedBefore(source: string, tagged: readonly Comment[], start: number, call = false): boolean {
  const between = call ? /^[\s(]*(await\s+[\s(]*)?$/ : /^\s*$/;
  return tagged.some((c) => {
    if (c.end! > start) return false;
    const text = withoutComments(source.slice(c.end!, start));
    // On the line above at most: a comment a blank line away says something else.
    return between.test(text) && (text.match(/\n/g)?.length ?? 0) <= 1;
  });
}

/** Whether a callee as written is one the user named (`--idempotent NAME`). */
export function namedIdempotent(callee: Node, names: readonly string[]): boolean {
  if (names.length === 0) return false;
  const path = memberPath(callee);
  return path !== undefined && names.some((name) => path === name || path.endsWith(`.${name}`));
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}
