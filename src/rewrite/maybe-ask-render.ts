// How a handler asks through a helper that may answer without asking (see
// src/plan/maybe-ask-split.ts). On the first call it awaits the helper's request half; when
// that returns a question the handler asks it, and when it returns the helper's value the call
// goes on as the retry that answers the question would (`mrtr.decided`), so everything after
// the question is written once, for both. Where the answer is read, `mrtr.value` gives the value
// decided on this call, or what the helper's result half makes of the client's answer.
import { maybeAskNamesType } from '../plan/maybe-ask-split.ts';
import { CARRIED } from '../plan/split-helper.ts';
import type { PlannedRequest } from '../plan/types.ts';

/** What the lines of a maybe-ask question are written with. */
export interface MaybeAskAsk {
  indent: string;
  /** The request half's call, its lines already indented (the first without indentation). */
  requestLines: string[];
  /** The step and the carried locals, as written in `mrtr.ask(...)`. */
  step: string;
  locals: string;
  /** The request half returns locals with its question (`{ ask, carried }`): they go in the state's locals too. */
  carries?: boolean;
  key: string;
  /** The variable the request half's outcome goes in. */
  outcome: string;
  /** The handler's step variable when it is a local (a question in a loop), else undefined. */
  stepLocal?: string;
  quote: (text: string) => string;
  semi: string;
}

/** `const o = await xRequest(...)`, the question returned when it is one, else the call going on with the value. */
export function maybeAskLines(a: MaybeAskAsk): string[] {
  const { indent, outcome, semi } = a;
  const call = [...a.requestLines];
  call[0] = `${indent}const ${outcome} = await ${call[0]}`;
  call[call.length - 1] = `${call[call.length - 1]}${semi}`;
  const decided = `mrtr.decided(${a.step}, ${a.locals}, { ${a.key}: ${outcome}.value })`;
  const carried = `${CARRIED}: ${outcome}.carried`;
  const locals = !a.carries ? a.locals : a.locals === '{}' ? `{ ${carried} }` : `${a.locals.slice(0, -2)}, ${carried} }`;
  return [
    ...call,
    `${indent}if (${a.quote('ask')} in ${outcome}) return mrtr.ask(${a.step}, ${locals}, { ${a.key}: ${outcome}.ask })${semi}`,
    `${indent}${a.stepLocal ? `${a.stepLocal} = ${decided}` : decided}${semi}`,
  ];
}

/** The request half's call with the handler's context added as its last argument (`xRequest(a, ctx)`). */
export function withContext(requestLines: readonly string[], ctx: string): string[] {
  const lines = [...requestLines];
  const last = lines[lines.length - 1]!;
  const close = last.lastIndexOf(')');
  const empty = close > 0 && last[close - 1] === '(';
  lines[lines.length - 1] = `${last.slice(0, close)}${empty ? '' : ', '}${ctx}${last.slice(close)}`;
  return lines;
}

/**
 * `mrtr.value(key, kind, result)`: the helper's value, decided on this call or made from the
 * answer by its result half (passed by name when it takes the answer alone).
 */
export function maybeAskValue(r: PlannedRequest, quote: (text: string) => string, typed: boolean): string {
  const [before, after] = r.resultWrap ?? ['', ''];
  // The result half's other arguments must not be shadowed by the arrow's parameter.
  const taken = new Set(`${before} ${after}`.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const args = `${quote(r.key)}, ${quote(r.guard)}`;
  if (before === '' && after === '') return `mrtr.value${typed ? `<${r.resultType}>` : ''}(${args})`;
  if (!maybeAskNamesType(r)) return `mrtr.value(${args}, ${before.slice(0, -1)})`;
  const param = ['answer', 'reply', 'mrtrReply'].find((n) => !taken.has(n))!;
  return `mrtr.value(${args}, (${param}${typed ? `: ${r.resultType}` : ''}) => ${before}${param}${after})`;
}

/** The value read from what `mrtr.value` returned: awaited when the result half is async (a decided value awaits as itself). */
export function maybeAskAnswer(name: string, r: PlannedRequest): string {
  return `${r.asyncResult ? 'await ' : ''}${name}.value`;
}

/** A split helper's result half called on the answer: awaited when it is async (it may resolve a promise the helper returned). */
export function resultCall(r: PlannedRequest, answer: string): string {
  const [before, after] = r.resultWrap!;
  return `${r.asyncResult ? 'await ' : ''}${before}${answer}${after}`;
}
