// `check --format text`: one line per finding, as ESLint's unix formatter and ast-grep print
// them (`path:line:col  rule  message`), then the files that could not be checked (listed
// under `<stage>-error`), what was passed over on purpose (`skipped`), then a one-line total.
// Quiet (check --quiet), only the findings and the files that could not be checked.
import { terminalText } from '../../core/escape.ts';
import { errorLocation, errorRuleId, formatTotal, messageWithHint, skipNote, type CheckReport } from './check-report.ts';

export function formatText(report: CheckReport, options: { quiet?: boolean } = {}): string {
  const lines: string[] = [];
  for (const f of report.findings) lines.push(`${f.file}:${f.line}:${f.column}  ${f.ruleId}  ${oneLine(messageWithHint(f))}${f.docs ? ` See ${f.docs}` : ''}`);
  for (const e of report.errors) lines.push(`${errorLocation(e)}  ${errorRuleId(e)}  ${oneLine(e.message)}`);
  if (!options.quiet) {
    for (const s of report.skipped) lines.push(`${s.file}  skipped  ${skipNote(s)}`);
    lines.push(formatTotal(report));
  }
  return lines.map((line) => `${terminalText(line)}\n`).join('');
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
