// The whole pipeline for one file's text, without a file system: analyse → plan → rewrite.
import { analyseFile, type FileAnalysis } from './analyse/analyse-file.ts';
import type { TypeFacts, TypeQuestions } from './analyse/type-facts.ts';
import { planFile } from './plan/plan-file.ts';
import type { PlanOptions } from './plan/plan-options.ts';
import type { FilePlan } from './plan/types.ts';
import { rewriteCapabilityChecks } from './rewrite/client-capabilities.ts';
import { applyEdits, type EditedText, editedText, rewriteEdits } from './rewrite/rewrite.ts';

export interface TransformResult {
  output: string;
  plan: FilePlan;
  changed: boolean;
  /** The output as splices into a text that parsed (see src/engine/verify-output.ts). */
  edited: EditedText;
}

/** Choices a user makes about the migration (the CLI's flags). */
export interface TransformOptions {
  /** `flag` leaves sampling sites in place with a marker instead of migrating them. */
  sampling?: 'migrate' | 'flag';
  /** Asking helpers of other modules, by the local name this file imports them under (the engine finds them). */
  externalHelpers?: PlanOptions['externalHelpers'];
  /** Exported asking helpers of this file to split: every other module's handler can ask through them (the engine found). */
  splitExported?: readonly string[];
  /** Functions of this file other modules hand their migrated tool definitions to: their handler type is widened. */
  widenDefiners?: readonly string[];
  /** The specifier through which this file reaches a module of the project that stays on the v1 SDK. */
  v1Through?: string;
  /** This file's exported functions other modules register as handlers, and how. */
  registeredAs?: PlanOptions['registeredAs'];
  /** Where the request-state module is (default: beside the file), and whether the engine wires its verifier elsewhere. */
  stateModule?: PlanOptions['stateModule'];
}

export function transformSource(source: string, fileName: string, typeFacts?: TypeFacts, options: TransformOptions = {}): TransformResult {
  const analysis = analyseFile(source, fileName);
  return rewritten(analysis, planFile(analysis, planOptions(options, typeFacts)));
}

function planOptions(options: TransformOptions, typeFacts?: TypeFacts): PlanOptions {
  return {
    typeFacts,
    sampling: options.sampling,
    externalHelpers: options.externalHelpers,
    stateModule: options.stateModule,
    ...(options.splitExported ? { splitExported: new Set(options.splitExported) } : {}),
    ...(options.widenDefiners ? { widenDefiners: new Set(options.widenDefiners) } : {}),
    ...(options.v1Through ? { v1Through: options.v1Through } : {}),
    ...(options.registeredAs ? { registeredAs: options.registeredAs } : {}),
  };
}

function rewritten(analysis: FileAnalysis, plan: FilePlan): TransformResult {
  const { source, fileName } = analysis;
  const edits = rewriteEdits(source, plan);
  const migrated = applyEdits(source, edits);
  // Second, separate concern on the rewritten text: capability checks inside handlers (the
  // analysis is reused when the rewrite changed nothing).
  const capabilities = rewriteCapabilityChecks(migrated, fileName, migrated === source ? analysis : undefined);
  const changed = capabilities.output !== source;
  // The last text parsed and the splices since: the output check parses only what they change.
  const edited = !changed
    ? { base: source, edits: [] }
    : capabilities.parsed
      ? editedText(migrated, capabilities.parsed.program, capabilities.parsed.edits)
      : editedText(source, analysis.program, edits);
  return { output: capabilities.output, plan, changed, edited };
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
 * Transforms one file, asking the type checker only when the plan asks a question only types
 * answer: the type and JSON-safety of a local that travels in requestState, or whether a
 * look-alike receiver is an MCP SDK object. Everything else never loads the compiler.
 */
export async function transformWithTypes(
  source: string,
  fileName: string,
  types?: TypeFactsSource,
  options: TransformOptions = {},
  onAnalysis?: (analysis: FileAnalysis) => void,
): Promise<TransformResult> {
  // One parse: every plan of the file shares it (and a caller that wants it, see RunSettings.onAnalysed).
  const analysis = analyseFile(source, fileName);
  onAnalysis?.(analysis);
  if (!types) return rewritten(analysis, planFile(analysis, planOptions(options)));
  const step = planOrQuestions(analysis, options);
  if ('plan' in step) return rewritten(analysis, step.plan);
  const facts = await types.forFile(fileName, source, step.questions);
  return rewritten(analysis, planWithFacts(analysis, facts, options));
}

/**
 * The plan when type facts would play no part in it (a JavaScript file, or no question asked),
 * else the questions whose answers it needs (then plan with planWithFacts). For a caller that
 * answers them its own way (the ESLint rule answers at once, in its own thread).
 */
export function planOrQuestions(analysis: FileAnalysis, options: TransformOptions = {}): { plan: FilePlan } | { questions: TypeQuestions } {
  if (!analysis.typed) return { plan: planFile(analysis, planOptions(options)) };
  const { questions, plan } = questionsOf(analysis, options);
  return questions.locals.length === 0 && questions.receivers.length === 0 ? { plan } : { questions };
}

export function planWithFacts(analysis: FileAnalysis, facts: TypeFacts, options: TransformOptions = {}): FilePlan {
  return planFile(analysis, planOptions(options, facts));
}

/**
 * The questions the plan with type facts will ask, found by planning once over facts that
 * answer everything permissively (every local typed and JSON-safe, every receiver the SDK's):
 * that plan asks about every local and receiver any answer could lead the real one to ask.
 */
function questionsOf(analysis: FileAnalysis, options: TransformOptions): { questions: TypeQuestions; plan: FilePlan } {
  const questions: TypeQuestions = { locals: [], receivers: [] };
  const asked = new Set<string>();
  const once = (key: string) => !asked.has(key) && Boolean(asked.add(key));
  const recording: TypeFacts = {
    local: (name, start) => {
      if (once(`local ${start} ${name}`)) questions.locals.push({ name, start });
      return { text: 'unknown', jsonSafe: true };
    },
    fromSdk: (start, end) => {
      if (once(`receiver ${start} ${end}`)) questions.receivers.push({ start, end });
      return true;
    },
  };
  return { questions, plan: planFile(analysis, planOptions(options, recording)) };
}
