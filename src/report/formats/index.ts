// The output formats of `mrtr-codemod check`, by name.
import type { CheckFormat, CheckReport } from './check-report.ts';
import { formatGithub } from './github.ts';
import { formatJson } from './json.ts';
import { formatSarif } from './sarif.ts';
import { formatText } from './text.ts';

export function formatCheckReport(report: CheckReport, format: CheckFormat): string {
  switch (format) {
    case 'json':
      return formatJson(report);
    case 'sarif':
      return formatSarif(report);
    case 'github':
      return formatGithub(report);
    case 'text':
      return formatText(report);
  }
}
