// `check --format sarif`: a SARIF 2.1.0 log (validated against the official OASIS schema in
// test/check.test.ts) that github/codeql-action/upload-sarif accepts. One run; the driver
// `mrtr-codemod` describes each rule id the results use; every result is an `error` at a
// location relative to %SRCROOT% (the directory check ran in: run it from the repository
// root for code scanning). Files that could not be checked are tool execution notifications
// (`executionSuccessful` is false when there are any), and so, as notes, are the folders and
// files passed over on purpose.
import { jsonText } from '../../core/escape.ts';
import { packageVersion } from '../../package-version.ts';
import { messageWithHint, ruleInfo, skipNote, type CheckError, type CheckReport, type CheckSkip, type Finding } from './check-report.ts';

const SARIF_SCHEMA_URI = 'https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json';
export const SRCROOT = '%SRCROOT%';

export function formatSarif(report: CheckReport, options: { version?: string } = {}): string {
  return `${jsonText(JSON.stringify(sarifLog(report, options), null, 2))}\n`;
}

export function sarifLog(report: CheckReport, options: { version?: string } = {}): Record<string, unknown> {
  const ruleIds = [...new Set(report.findings.map((f) => f.ruleId))].sort();
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]));
  const version = options.version ?? packageVersion();
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mrtr-codemod',
            version,
            semanticVersion: version,
            rules: ruleIds.map((id) => {
              const rule = ruleInfo(id);
              return {
                id,
                shortDescription: { text: rule.shortDescription },
                fullDescription: { text: rule.fullDescription },
                help: { text: rule.help },
                helpUri: rule.docsUrl,
                defaultConfiguration: { level: 'error' },
                properties: { tags: ['mcp', 'migration'] },
              };
            }),
          },
        },
        invocations: [
          {
            executionSuccessful: report.errors.length === 0,
            exitCode: report.summary.exitCode,
            ...(report.errors.length + report.skipped.length > 0
              ? { toolExecutionNotifications: [...report.errors.map(notification), ...report.skipped.map(skippedNotification)] }
              : {}),
          },
        ],
        columnKind: 'utf16CodeUnits',
        results: report.findings.map((f) => result(f, ruleIndex.get(f.ruleId)!)),
      },
    ],
  };
}

function result(finding: Finding, ruleIndex: number): Record<string, unknown> {
  return {
    ruleId: finding.ruleId,
    ruleIndex,
    level: 'error',
    message: { text: messageWithHint(finding) },
    locations: [location(finding.file, finding.line, finding.column)],
  };
}

function notification(error: CheckError): Record<string, unknown> {
  return {
    level: 'error',
    message: { text: `${error.file}: ${error.message}` },
    ...(error.stage === 'discover' ? {} : { locations: [location(error.file, error.line, error.column)] }),
    properties: { stage: error.stage },
  };
}

/** A folder or file passed over on purpose: a note, with its place, and the legacy requests a vendored folder holds. */
function skippedNotification(skip: CheckSkip): Record<string, unknown> {
  return {
    level: 'note',
    message: { text: `${skip.file}: skipped: ${skipNote(skip)}` },
    locations: [location(skip.file)],
    ...(skip.legacyRequests !== undefined ? { properties: { legacyRequests: skip.legacyRequests } } : {}),
  };
}

function location(file: string, line?: number, column?: number): Record<string, unknown> {
  return {
    physicalLocation: {
      artifactLocation: { uri: fileUri(file), uriBaseId: SRCROOT },
      ...(line !== undefined ? { region: { startLine: line, ...(column !== undefined ? { startColumn: column } : {}) } } : {}),
    },
  };
}

/** A relative path (with `/`) as a relative URI reference: each segment percent-encoded. */
export function fileUri(file: string): string {
  return file
    .split('/')
    .map((segment) => segment.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=@]/gu, (c) => encodeURIComponent(c)))
    .join('/');
}
