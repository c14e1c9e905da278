// Renders one planned handler body. The code before the first question moves into the
// first-call branch (so it runs once), each middle segment into the branch of the step
// whose answer it follows, and the code after the last question stays where it was, byte
// for byte, so the diff shows only what had to change.
import { KINDS, NOTE_MARKER } from '../analyse/sdk-surface.ts';
import { indentAt, lineEndOf, lineStartOf, lineTail } from '../plan/text.ts';
import type { Edit, HandlerPlan, LiftedLocal, PlannedRequest, Span, SuspensionPoint } from '../plan/types.ts';

export function renderHandler(source: string, plan: HandlerPlan, eol: string, typed: boolean): Edit[] {
  const { points, body } = plan;
  const first = points[0]!;
  const I = indentAt(source, first.statement.start);
  const outer = indentAt(source, body.start);
  const U = I.startsWith(outer) && I.length > outer.length ? I.slice(outer.length) : '  ';
  const reindent = (from: number, to: number, add: string) => indentLines(source, from, to, add, plan.verbatim);

  const out: string[] = [];
  const firstNl = source.indexOf('\n', body.start);
  out.push(source.slice(body.start, firstNl).replace(/\r$/, '')); // `{` and whatever shares its line
  const keys = points.map((p) => quote(p.step)).join(', ');
  out.push(`${I}const mrtr = await mrtrResume(${plan.ctxName}, ${quote(plan.id)}, [${keys}], ${plan.argsText});`);

  // First call: everything before the first question, then the question.
  out.push(`${I}if (mrtr.step === undefined) {`);
  out.push(...reindent(firstNl + 1, lineStartOf(source, first.statement.start), U));
  out.push(...askLines(first, I + U, U, source, plan));
  out.push(`${I}}`);

  // Each middle step: restore, read the answer, run the segment, ask the next question.
  for (let i = 1; i < points.length; i++) {
    const answered = points[i - 1]!;
    const next = points[i]!;
    out.push(`${I}if (mrtr.step === ${quote(answered.step)}) {`);
    out.push(...restoreLines(answered.lifted, I + U, typed));
    out.push(...readLines(answered, I + U, source, typed));
    out.push(...reindent(lineEndOf(source, answered.statement.end) + 1, lineStartOf(source, next.statement.start), U));
    out.push(...askLines(next, I + U, U, source, plan));
    out.push(`${I}}`);
  }

  // The last answer: restore and read at the original indentation; the rest stays verbatim.
  const last = points[points.length - 1]!;
  out.push(...restoreLines(last.lifted, I, typed));
  out.push(...readLines(last, I, source, typed));
  const lastEnd = lineEndOf(source, last.statement.end);
  const rest = source.slice(source[lastEnd - 1] === '\r' ? lastEnd - 1 : lastEnd, body.end);

  const edits: Edit[] = [{ start: body.start, end: body.end, text: out.join(eol) + rest }];
  if (plan.returnTypeEdit) edits.push(plan.returnTypeEdit);
  if (plan.addParam) {
    edits.push({ start: plan.addParam.at, end: plan.addParam.at, text: plan.addParam.text });
    if (plan.addParam.close) edits.push({ start: plan.addParam.close.at, end: plan.addParam.close.at, text: plan.addParam.close.text });
  }
  return edits;
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Lines of source[from, to) (whole lines, `to` at a line start), each non-blank one indented by `add`. */
function indentLines(source: string, from: number, to: number, add: string, verbatim: Span[]): string[] {
  if (to <= from) return [];
  const text = source.slice(from, to - 1); // drop the final newline
  const lines: string[] = [];
  let offset = from;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const inLiteral = verbatim.some((s) => s.start < offset && offset < s.end);
    lines.push(inLiteral || line.trim() === '' ? (inLiteral ? line : '') : add + line);
    offset += raw.length + 1;
  }
  return lines;
}

function askLines(point: SuspensionPoint, indent: string, U: string, source: string, plan: HandlerPlan): string[] {
  const lines: string[] = [];
  const guidance = new Set(point.requests.map((r) => KINDS[r.kind].guidance).filter((g) => g !== undefined));
  for (const g of guidance) lines.push(`${indent}// ${NOTE_MARKER}: ${g}`);
  const locals = point.lifted.length === 0 ? '{}' : `{ ${point.lifted.map((l) => l.name).join(', ')} }`;
  lines.push(`${indent}return mrtr.ask(${quote(point.step)}, ${locals}, {`);
  // A request's continuation lines keep their indentation relative to its first line.
  const keyIndent = indent + U;
  for (const request of point.requests) {
    const was = indentAt(source, request.paramsStart);
    const text = request.requestText
      .split('\n')
      .map((line, i) => (i === 0 || line.trim() === '' || insideLiteral(request, plan, source, i) || !line.startsWith(was) ? line : keyIndent + line.slice(was.length)))
      .join('\n');
    lines.push(`${keyIndent}${request.key}: ${text},`);
  }
  lines.push(`${indent}});`);
  return lines;
}

/** Whether line `i` of a request's text starts inside a string or template literal. */
function insideLiteral(request: PlannedRequest, plan: HandlerPlan, source: string, i: number): boolean {
  let offset = request.paramsStart;
  for (let n = 0; n < i; n++) offset = source.indexOf('\n', offset) + 1;
  return plan.verbatim.some((s) => s.start < offset && offset < s.end);
}

function restoreLines(lifted: LiftedLocal[], indent: string, typed: boolean): string[] {
  const lines: string[] = [];
  for (const mutable of [false, true]) {
    const group = lifted.filter((l) => l.mutable === mutable);
    if (group.length === 0) continue;
    const names = group.map((l) => l.name).join(', ');
    const type = typed ? `<{ ${group.map((l) => `${l.name}: ${l.typeText ?? 'unknown'}`).join('; ')} }>` : '';
    lines.push(`${indent}${mutable ? 'let' : 'const'} { ${names} } = mrtr.locals${type}();`);
  }
  return lines;
}

/**
 * Reads a round's answers into the variables the legacy code used, re-asking when any is
 * missing. The answer lands directly in the declared name where there is one; otherwise in
 * a temporary the original binding (pattern, assignment, return) then takes from.
 */
function readLines(point: SuspensionPoint, indent: string, source: string, typed: boolean): string[] {
  const { binding, requests } = point;
  const single = requests.length === 1;
  const direct =
    binding.form !== 'declare' ? undefined
    : single ? (binding.name ? [binding.name] : undefined)
    : binding.elements?.length === requests.length ? binding.elements : undefined;
  const names = direct ?? requests.map((_, i) => (single ? 'mrtrAnswer' : `mrtrAnswer${i + 1}`));
  const declKind = direct && binding.form === 'declare' ? binding.kind : 'const';
  const lines = requests.map((r, i) => `${indent}${declKind} ${names[i]} = mrtr.response${typed ? `<${r.resultType}>` : ''}(${quote(r.key)}, '${r.guard}');`);
  const tail = lineTail(source, point.statement.end) ?? '';
  const missing = names.map((n) => `${n} === undefined`).join(' || ');
  const value = single ? names[0]! : `[${names.join(', ')}]`;
  const tuple = typed && !single ? `: [${requests.map((r) => r.resultType).join(', ')}]` : '';
  let finish: string | undefined;
  if (binding.form === 'declare' && !direct) finish = binding.name ? `${binding.kind} ${binding.name}${tuple} = ${value};` : `${binding.kind} ${binding.pattern} = ${value};`;
  if (binding.form === 'assign') finish = `${binding.name} = ${value};`;
  if (binding.form === 'return') finish = `return ${value};`;
  if (binding.form === 'discard' && single) {
    const [only] = lines;
    return [`${indent}if (${only!.trim().replace(/^const mrtrAnswer = (.*);$/, '$1')} === undefined) return mrtr.askAgain();${tail}`];
  }
  lines.push(`${indent}if (${missing}) return mrtr.askAgain();${finish ? '' : tail}`);
  if (finish) lines.push(`${indent}${finish}${tail}`);
  return lines;
}
