// The ESLint plugin (`mrtr-codemod/eslint`, flat config): what `mrtr-codemod check` reports,
// in the editor and in the lint run a project already has.
//
//   // eslint.config.mjs
//   import mrtr from 'mrtr-codemod/eslint';
//   export default [mrtr.configs.recommended];
//
// Each rule id of check is a rule here (`mrtr-todo/closure` is `mrtr-codemod/mrtr-todo-closure`),
// with its description and documentation link from check's rule table, so a refusal can be
// turned off on its own; `mrtr-todo` takes markers whose code is in no table, and
// `not-checked` a file that check could not read or parse (check exits 2 on it). The rules do
// not read ESLint's syntax tree, so the recommended config takes every server file as it is,
// TypeScript and JavaScript, with no parser or `files` to add (its parser is the project's own
// where it has one: src/eslint/parser.ts).
import path from 'node:path';
import type { ESLint, Linter, Rule, SourceCode } from 'eslint';
import { readmeUrl } from '../core/vocabulary.ts';
import { SOURCE_EXTENSIONS } from '../engine/discover.ts';
import { packageVersion } from '../package-version.ts';
import { isRefusalCode, REFUSAL_CODES } from '../plan/refusal.ts';
import { LEGACY_RULE, messageWithHint, NOT_ANALYSED_RULE, OFFICIAL_RULE, ruleInfo, TODO_RULE_PREFIX, type Finding } from '../report/formats/check-report.ts';
import { fileFindings, type FileFindings } from './file-findings.ts';
import { parser } from './parser.ts';

const PLUGIN = 'mrtr-codemod';
/** The rule of markers whose code is in no table. */
const OTHER_TODO = 'mrtr-todo';
/** The rule of files check could not look at. */
const NOT_CHECKED = 'not-checked';

/** The ESLint rule (without the plugin's prefix) that reports a finding of `check`. */
export function eslintRuleName(checkRuleId: string): string {
  if (!checkRuleId.startsWith(TODO_RULE_PREFIX)) return checkRuleId;
  const code = checkRuleId.slice(TODO_RULE_PREFIX.length);
  return isRefusalCode(code) ? `${OTHER_TODO}-${code}` : OTHER_TODO;
}

/** Findings by ESLint's SourceCode: every rule looks at the same file, which is analysed once. */
const analysed = new WeakMap<SourceCode, FileFindings>();

function findingsOf(context: Rule.RuleContext): FileFindings {
  let result = analysed.get(context.sourceCode);
  if (!result) {
    result = fileFindings(context.sourceCode.text, path.resolve(context.cwd, context.filename), context.cwd);
    analysed.set(context.sourceCode, result);
  }
  return result;
}

function rule(name: string, docs: { description: string; url: string }, report: (context: Rule.RuleContext, result: FileFindings) => void): Rule.RuleModule {
  return {
    meta: { type: 'problem', docs, messages: { [name]: '{{message}}' }, schema: [] },
    create: (context) => ({ Program: () => report(context, findingsOf(context)) }),
  };
}

/** The rule of one of check's rule ids: its findings, described as check describes them. */
function findingRule(name: string, checkRuleId: string): Rule.RuleModule {
  const info = ruleInfo(checkRuleId);
  return rule(name, { description: info.shortDescription, url: info.docsUrl }, (context, { findings }) => {
    for (const finding of findings) if (eslintRuleName(finding.ruleId) === name) reportAt(context, name, finding, messageWithHint(finding));
  });
}

function reportAt(context: Rule.RuleContext, name: string, at: Pick<Finding, 'line' | 'column'>, message: string): void {
  context.report({ loc: { line: at.line, column: at.column - 1 }, messageId: name, data: { message } });
}

const rules: Record<string, Rule.RuleModule> = {};
for (const checkRuleId of [LEGACY_RULE, OFFICIAL_RULE, NOT_ANALYSED_RULE, ...Object.keys(REFUSAL_CODES).map((code) => `${TODO_RULE_PREFIX}${code}`)]) {
  const name = eslintRuleName(checkRuleId);
  rules[name] = findingRule(name, checkRuleId);
}
rules[OTHER_TODO] = findingRule(OTHER_TODO, `${TODO_RULE_PREFIX}unspecified`);
rules[NOT_CHECKED] = rule(
  NOT_CHECKED,
  { description: 'A file mrtr-codemod check could not read or parse (check exits 2 on it).', url: readmeUrl(NOT_CHECKED) },
  (context, { problem }) => {
    if (problem)
      reportAt(context, NOT_CHECKED, { line: problem.line ?? 1, column: problem.column ?? 1 }, `mrtr-codemod could not check this file: ${problem.message}`);
  },
);

const plugin = {
  meta: { name: PLUGIN, version: packageVersion() },
  rules,
  configs: {} as { recommended: Linter.Config },
} satisfies ESLint.Plugin;

/**
 * Every rule on, as errors (check fails on every finding), for every file check reads
 * (SOURCE_EXTENSIONS), with a parser that reads them all: the project's own where it has one
 * (src/eslint/parser.ts).
 */
plugin.configs.recommended = {
  name: `${PLUGIN}/recommended`,
  files: [`**/*.{${SOURCE_EXTENSIONS.map((extension) => extension.slice(1)).join(',')}}`],
  plugins: { [PLUGIN]: plugin },
  languageOptions: { parser },
  rules: Object.fromEntries(Object.keys(rules).map((name) => [`${PLUGIN}/${name}`, 'error'])),
};

export default plugin;
