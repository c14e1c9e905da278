// The whole pipeline for one file's text, without a file system: analyse → plan → rewrite.
import { analyseFile, type FileAnalysis } from './analyse/analyse-file.ts';
import type { TypeFacts, TypeQuestions } from './analyse/type-facts.ts';
import { planFile, type PlanOptions } from './plan/plan-file.ts';
import type { FilePlan } from './plan/types.ts';
import { rewriteCapabilityChecks } from './rewrite/client-capabilities.ts';
import { rewrite } from './rewrite/rewrite.ts';

export interface TransformResult {
  output: string;
  plan: FilePlan;
  changed: boolean;
}

/** Choices a user makes about the migration (the CLI's flags). */
export interface TransformOptions {
  /** `flag` leaves sampling sites in place with a marker instead of migrating them. */
  sampling?: 'migrate' | 'flag';
  /** Asking helpers of other modules, by the local name this file imports them under (the engine finds them). */
  externalHelpers?: PlanOptions['externalHelpers'];
}

export function transformSource(source: string, fileName: string, typeFacts?: TypeFacts, options: TransformOptions = {}): TransformResult {
  const analysis = analyseFile(source, fileName);
  return rewritten(source, fileName, planFile(analysis, planOptions(options, typeFacts)));
}

function planOptions(options: TransformOptions, typeFacts?: TypeFacts): PlanOptions {
  return { typeFacts, sampling: options.sampling, externalHelpers: options.externalHelpers };
}

function rewritten(source: string, fileName: string, plan: FilePlan): TransformResult {
  // Second, separate concern on the rewritten text: capability checks inside handlers.
  const output = rewriteCapabilityChecks(rewrite(source, plan), fileName).output;
  return { output, plan, changed: output !== source };
}

/** Supplies type facts for a file; the engine shares one across a run. */
export interface TypeFactsSource {
  /** Answers `questions` about the file (a question not asked has no answer). */
  forFile(fileName: string, source: string, questions: TypeQuestions): Promise<TypeFacts>;
  /**
   * A TypeScript file that mentions the legacy surface was read: questions are likely to
   * follow, so a source with a slow start may begin it now (load the compiler).
   */
  prepare?(): void;
  /** Every file has been read: answer the questions that wait now, and later ones as they come. */
  flush?(): void;
  /** Releases what the source holds (a worker thread); called at the end of a run. */
  close?(): Promise<void>;
}

/**
 * Transforms one file, asking the type checker only when the answer depends on it: a
 * TypeScript file whose plan lifts locals (their types and JSON-safety come from the
 * checker), refused a local for want of a type, or has a receiver only types can tell.
 * Everything else never loads the compiler.
 */
export async function transformWithTypes(source: string, fileName: string, types?: TypeFactsSource, options: TransformOptions = {}): Promise<TransformResult> {
  // One parse: the quick plan and, when it needs them, the plan with type facts share it.
  const analysis = analyseFile(source, fileName);
  const quick = planFile(analysis, planOptions(options));
  const wantsTypes = quick.uncertain > 0 || quick.sites.some((s) => (s.status === 'migrated' && (s.lifted?.length ?? 0) > 0) || s.code === 'untyped-local');
  if (!types || !quick.typed || !wantsTypes) return rewritten(source, fileName, quick);
  const facts = await types.forFile(fileName, source, typeQuestions(analysis, options));
  return rewritten(source, fileName, planFile(analysis, planOptions(options, facts)));
}

/**
 * The questions the plan with type facts will ask, found by planning once over facts that
 * answer everything permissively (every local typed and JSON-safe, every receiver the SDK's):
 * that plan asks about every local and receiver any answer could lead the real one to ask.
 */
export function typeQuestions(analysis: FileAnalysis, options: TransformOptions = {}): TypeQuestions {
  const questions: TypeQuestions = { locals: [], receivers: [] };
  const seen = new Set<string>();
  const recording: TypeFacts = {
    local: (name, start) => {
      if (!seen.has(`${start}:${name}`)) questions.locals.push({ name, start });
      seen.add(`${start}:${name}`);
      return { text: 'unknown', jsonSafe: true };
    },
    fromSdk: (start, end) => {
      if (!seen.has(`${start}-${end}`)) questions.receivers.push({ start, end });
      seen.add(`${start}-${end}`);
      return true;
    },
  };
  planFile(analysis, planOptions(options, recording));
  return questions;
}
