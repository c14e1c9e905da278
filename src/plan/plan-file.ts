// From the analysis of one file to its plan: per handler, the suspension points, what
// travels across each, and the keys; per refused site, a marker with the reason and the
// next step. A handler is migrated whole or not at all: one site we cannot move safely
// leaves the whole handler as it was, with every site marked.
import type { FileAnalysis } from '../analyse/analyse-file.ts';
import { assemblePlan } from './assemble-plan.ts';
import { placeDualEraHandlers } from './dual-era.ts';
import { placeExternalCalls } from './external-helpers.ts';
import { startPlanning } from './file-planning.ts';
import { placeFrameworkHandlers } from './framework-placement.ts';
import { decideOutcomes } from './handler-outcomes.ts';
import { placeDispatches } from './dispatch.ts';
import { markLateRegistrations, placeDelegations, placeSites, placeUrlThrows, presetRefusals } from './place-sites.ts';
import type { PlanOptions } from './plan-options.ts';
import type { FilePlan } from './types.ts';

export function planFile(analysis: FileAnalysis, options: PlanOptions = {}): FilePlan {
  // A framework's tools first: their questions are answered in place, or marked, apart.
  const file = placeFrameworkHandlers(startPlanning(analysis, options));
  // Where each site goes: its handler, the handlers a split helper asks for, or a marker.
  presetRefusals(file);
  placeSites(file);
  placeDualEraHandlers(file);
  placeUrlThrows(file);
  markLateRegistrations(file);
  placeExternalCalls(file);
  placeDelegations(file);
  placeDispatches(file);
  // Each handler planned once, then the edits around the handlers, the reports and the plan.
  return assemblePlan(file, decideOutcomes(file));
}
