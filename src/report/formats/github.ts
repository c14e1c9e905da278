// `check --format github`: GitHub Actions workflow commands, one `::error` annotation per
// finding and per file that could not be checked, a `::notice` per folder or file passed over
// on purpose, then the one-line total (a plain log line). Quiet (check --quiet), only the
// `::error` annotations.
// Values are escaped as @actions/core does: in the message `%`, CR and LF; in properties also
// `:` and `,`. Any other control character from the repository is escaped too (terminalText):
// the log is read on a terminal as well as in the browser.
import { terminalText } from '../../core/escape.ts';
import { errorRuleId, formatTotal, messageWithHint, skipNote, type CheckReport } from './check-report.ts';

export function formatGithub(report: CheckReport, options: { quiet?: boolean } = {}): string {
  const lines: string[] = [];
  for (const f of report.findings) {
    lines.push(command({ file: f.file, line: f.line, col: f.column, title: `mrtr-codemod ${f.ruleId}` }, messageWithHint(f)));
  }
  for (const e of report.errors) {
    const where =
      e.stage === 'discover'
        ? { title: `mrtr-codemod ${errorRuleId(e)}` }
        : { file: e.file, line: e.line, col: e.column, title: `mrtr-codemod ${errorRuleId(e)}` };
    lines.push(command(where, e.stage === 'discover' ? `${e.file}: ${e.message}` : e.message));
  }
  if (!options.quiet) {
    for (const s of report.skipped) lines.push(command({ file: s.file, title: 'mrtr-codemod skipped' }, skipNote(s), 'notice'));
    lines.push(terminalText(formatTotal(report)));
  }
  return lines.map((line) => `${line}\n`).join('');
}

function command(properties: Record<string, string | number | undefined>, message: string, level: 'error' | 'notice' = 'error'): string {
  const props = Object.entries(properties)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${level}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

export function escapeData(value: string): string {
  return terminalText(value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
