// The output formats of `mrtr-codemod check`, by name.
import type { CheckFormat, CheckReport } from './check-report.ts';
import { formatGithub } from './github.ts';
import { formatJson } from './json.ts';
import { formatSarif } from './sarif.ts';
import { formatText } from './text.ts';

/** Options of the text formats: `quiet` leaves out the notes on what was skipped and the total line (check --quiet). */
export interface CheckFormatOptions {
  quiet?: boolean;
}

/** The report in `format`; `options.quiet` changes only the text and github formats (json and sarif stay whole documents). */
export function formatCheckReport(report: CheckReport, format: CheckFormat, options: CheckFormatOptions = {}): string {
  switch (format) {
    case 'json':
      return formatJson(report);
    case 'sarif':
      return formatSarif(report);
    case 'github':
      return formatGithub(report, options);
    case 'text':
      return formatText(report, options);
  }
}
