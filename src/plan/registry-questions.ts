// A request no handler of this module answers may sit in a handler another module's registry
// registers: the factory of a declaration this module hands to a function of that module. The
// plan names those functions, and the engine reads their modules (engine/registry-modules.ts).
import { declarationCallees } from '../analyse/registry-links.ts';
import type { FilePlanning } from './file-planning.ts';
import type { FilePlan } from './types.ts';

export function registryQuestions(file: FilePlanning): Pick<FilePlan, 'registryQuestions'> {
  const { analysis, options, handlers } = file;
  // Asked once: the engine's answers are the registries it was given.
  if (options.registries) return {};
  // A call of another module's asking helper may sit in such a handler too (its function reached through a factory).
  const unanswered = file.candidates.some((site) => !handlers.some((h) => site.functions.includes(h.fn))) || (options.externalHelpers?.size ?? 0) > 0;
  const callees = unanswered ? declarationCallees(analysis.index, analysis.importedNames) : [];
  return callees.length > 0 ? { registryQuestions: callees } : {};
}
