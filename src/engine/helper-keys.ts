// How the engine names an exported helper across modules.
import type { FilePlan } from '../plan/types.ts';

export type ExportedHelper = FilePlan['exportedHelpers'][number];

/** One helper of the index: its module (absolute path, as discovered) and exported name. */
export function helperKey(module: string, name: string): string {
  return `${module}\0${name}`;
}
