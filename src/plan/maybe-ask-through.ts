// A helper that calls a maybe-ask helper (maybe-ask-split.ts) and does more with its value
// (`const resolved = await resolveRoot(server, explicit); if (!resolved.root) return { error };
// return resolved.root;`) is itself a helper that may answer without asking. Its request half
// propagates the inner helper's question as it is and, when the inner one decided without
// asking, goes on with that value; its result half goes on with what the inner result half made
// of the answer. Both go on through one function, `xThen(value, ...)`, the code after the call
// written once; a helper that returns the inner call hands its outcome on as it is.
import type { Node } from '@babel/types';
import type { FunctionNode } from '../analyse/ast.ts';
import { argumentParams } from '../analyse/ast.ts';
import type { LegacySite } from '../analyse/find-sites.ts';
import type { Answer } from './split-helper.ts';
import { localTypeText, type TypeNames } from './server-type-names.ts';

/** The local that holds an inner helper's outcome in a request half. */
export const OUTCOME = 'mrtrOutcome';

/** What the request half has in place of the call of the inner helper, one line each: the outcome handed on, or taken apart. */
export function passedOn(answer: Answer, requestText: string, then: string, semi: string): string[] {
  if (answer.form === 'return') return [`return ${requestText}${semi}`];
  return [`const ${OUTCOME} = await ${requestText};`, `return 'ask' in ${OUTCOME} ? ${OUTCOME} : { value: ${then.replace('\0', `${OUTCOME}.value`)} }${semi}`];
}

/** Why the code after the inner helper's call cannot go on through `xThen` (`that ...`), if it cannot. */
export function throughProblem(site: LegacySite, onTheWay: readonly Node[]): string | undefined {
  const tried = onTheWay.find((s) => s.type === 'TryStatement');
  // Inside a try, the request half would run `xThen` (which re-enters the try) in the try again: a catch could run twice.
  if (tried) return `that calls \`${site.via!.helper}()\` inside the try at line ${tried.loc!.start.line} and does more with its value.`;
  return undefined;
}

/**
 * The type of the value the inner helper resolves to, as this module can name it: the answer's
 * own type when the inner helper returned the answer, else its result half's return type.
 */
export function innerValueType(site: LegacySite, types: TypeNames): string | undefined {
  const [before, after] = site.via!.result;
  if (before === '' && after === '') return localTypeText(types, site.shape.resultType ?? '');
  const called = /^([A-Za-z_$][\w$]*)\($/.exec(before);
  return called ? `ReturnType<typeof ${called[1]}>` : undefined;
}

/** The call of `xThen` with the helper's parameters it takes (`\0` where the value goes). */
export function thenCall(fn: FunctionNode, name: string, used: boolean[], method: boolean): string {
  const names = argumentParams(fn)
    .filter((_, i) => used[i])
    .map((p) => (p as { name: string }).name);
  return `${method ? 'this.' : ''}${name}Then(${['\0', ...names].join(', ')})`;
}
