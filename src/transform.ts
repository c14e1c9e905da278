// The whole pipeline for one file's text, without a file system: analyse → plan → rewrite.
import { analyseFile } from './analyse/analyse-file.ts';
import type { TypeFacts } from './analyse/type-facts.ts';
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

/** What a plan needs the checker for: the types of lifted locals, and whether receivers are the SDK's. */
export interface TypeFactsNeed {
  locals: boolean;
  receivers: boolean;
}

/** Supplies type facts for a file; the engine shares one across a run. */
export interface TypeFactsSource {
  forFile(fileName: string, source: string, need?: TypeFactsNeed): Promise<TypeFacts>;
}

/**
 * Transforms one file, asking the type checker only when the answer depends on it: a
 * TypeScript file whose plan lifts locals (their types and JSON-safety come from the
 * checker) or refused a local for want of a type. Everything else never loads the compiler.
 */
export async function transformWithTypes(source: string, fileName: string, types?: TypeFactsSource, options: TransformOptions = {}): Promise<TransformResult> {
  // One parse: the quick plan and, when it needs them, the plan with type facts share it.
  const analysis = analyseFile(source, fileName);
  const quick = planFile(analysis, planOptions(options));
  const need: TypeFactsNeed = {
    locals: quick.sites.some((s) => (s.status === 'migrated' && (s.lifted?.length ?? 0) > 0) || s.code === 'untyped-local'),
    receivers: quick.uncertain > 0,
  };
  if (!types || !quick.typed || !(need.locals || need.receivers)) return rewritten(source, fileName, quick);
  const facts = await types.forFile(fileName, source, need);
  return rewritten(source, fileName, planFile(analysis, planOptions(options, facts)));
}
