// The programmatic API (`import { runCodemod } from 'mrtr-codemod'`): what the CLI runs, without
// its printing. The ESLint plugin is `mrtr-codemod/eslint`; the jscodeshift transforms are
// dist/transforms/*.js (from transforms/).
export { collectCheckReport } from './cli/check-command.ts';
export { runCodemod } from './engine/run.ts';
export type { ChangedFile, ErrorStage, RunError, RunOptions, RunResult, RunSettings, RunSite } from './engine/run.ts';
export { unifiedDiff, unifiedDiffs } from './report/diff.ts';
export { formatCheckReport } from './report/formats/index.ts';
export type { CheckFormat, CheckReport, Finding } from './report/formats/check-report.ts';
export { transformSource, transformWithTypes } from './transform.ts';
export type { TransformOptions, TransformResult, TypeFactsSource } from './transform.ts';
