// Renders one planned handler body. The code before the first question moves into the
// first-call branch (so it runs once), each middle segment into the branch of the step
// whose answer it follows, and the code after the last question stays where it was, byte
// for byte, so the diff shows only what had to change.
import { KINDS, NOTE_MARKER } from '../analyse/sdk-surface.ts';
import { indentAt, lineEndOf, lineStartOf, lineTail } from '../plan/text.ts';
import type { Edit, HandlerPlan, LiftedLocal, Span, SuspensionPoint } from '../plan/types.ts';

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
  const keys = points.map((p) => `'${p.key}'`).join(', ');
  out.push(`${I}const mrtr = await mrtrResume(${plan.ctxName}, ${quote(plan.id)}, [${keys}], ${plan.argsText});`);

  // First call: everything before the first question, then the question.
  out.push(`${I}if (mrtr.step === undefined) {`);
  out.push(...reindent(firstNl + 1, lineStartOf(source, first.statement.start), U));
  out.push(...askLines(first, I + U, I, U, source, plan, typed));
  out.push(`${I}}`);

  // Each middle step: restore, read the answer, run the segment, ask the next question.
  for (let i = 1; i < points.length; i++) {
    const answered = points[i - 1]!;
    const next = points[i]!;
    out.push(`${I}if (mrtr.step === '${answered.key}') {`);
    out.push(...restoreLines(answered.lifted, I + U, typed));
    out.push(...readLines(answered, I + U, source, typed));
    out.push(...reindent(lineEndOf(source, answered.statement.end) + 1, lineStartOf(source, next.statement.start), U));
    out.push(...askLines(next, I + U, I, U, source, plan, typed));
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

function askLines(point: SuspensionPoint, indent: string, original: string, U: string, source: string, plan: HandlerPlan, typed: boolean): string[] {
  const lines: string[] = [];
  const guidance = KINDS[point.kind].guidance;
  if (guidance) lines.push(`${indent}// ${NOTE_MARKER}: ${guidance}`);
  const locals = point.lifted.length === 0 ? '{}' : `{ ${point.lifted.map((l) => l.name).join(', ')} }`;
  // The request's own continuation lines move with it: from the statement's indentation to the key's.
  const shift = (indent + U).slice(original.length);
  const request = point.requestText
    .split('\n')
    .map((line, i) => (i === 0 || line.trim() === '' || insideLiteral(point, plan, source, i) ? line : shift + line))
    .join('\n');
  lines.push(`${indent}return mrtr.ask('${point.key}', ${locals}, {`);
  lines.push(`${indent}${U}${point.key}: ${request},`);
  lines.push(`${indent}});`);
  void typed;
  return lines;
}

/** Whether line `i` of a point's request text starts inside a string or template literal. */
function insideLiteral(point: SuspensionPoint, plan: HandlerPlan, source: string, i: number): boolean {
  let offset = point.paramsStart;
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

function readLines(point: SuspensionPoint, indent: string, source: string, typed: boolean): string[] {
  const type = typed ? `<${point.resultType}>` : '';
  const read = `mrtr.response${type}('${point.key}', '${point.guard}')`;
  const tail = lineTail(source, point.statement.end) ?? '';
  const again = 'return mrtr.askAgain();';
  const b = point.binding;
  switch (b.form) {
    case 'declare':
      return [`${indent}${b.kind} ${b.name} = ${read};`, `${indent}if (${b.name} === undefined) ${again}${tail}`];
    case 'assign':
      return [`${indent}const mrtrAnswer = ${read};`, `${indent}if (mrtrAnswer === undefined) ${again}`, `${indent}${b.name} = mrtrAnswer;${tail}`];
    case 'discard':
      return [`${indent}if (${read} === undefined) ${again}${tail}`];
    case 'return':
      return [`${indent}const mrtrAnswer = ${read};`, `${indent}if (mrtrAnswer === undefined) ${again}`, `${indent}return mrtrAnswer;${tail}`];
  }
}
