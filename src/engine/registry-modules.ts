// The registries of the project's modules, for the modules that hand them declarations
// (`declareTool({ name, factory })`, `declareTool` imported from './tool-registry.js'). Read by
// the engine, which sees every file: a module's own registries come from its analysis
// (analyse/tool-registries.ts); a function another module imports from it hands its arguments
// to them when it is the registry's own function, or any other function of that module (a
// definer beside the registry). A module outside the run, one that does not parse, a
// re-export: no registry.
import path from 'node:path';
import { analyseFile } from '../analyse/analyse-file.ts';
import { namedFunctions } from '../analyse/file-index.ts';
import type { ImportedRegistries } from '../analyse/registry-declarations.ts';
import { plainShape } from '../analyse/registry-links.ts';
import type { Registry, RegistryShape } from '../analyse/tool-registries.ts';
import type { FilePlan } from '../plan/types.ts';
import type { TransformOptions } from '../transform.ts';
import { moduleFiles } from './cross-module.ts';
import { exportedLocal, type ReadModule } from './hook-registrars.ts';

/** At most this many modules are read for one run's registries. */
const MAX_MODULES = 64;

/** What a module offers: its registries' shapes, and the functions through which declarations reach them. */
interface ModuleRegistries {
  registries: Registry[];
  /** Its functions by the name it exports them under, as module-level names. */
  local: (exported: string) => string | undefined;
  functions: ReadonlySet<string>;
}

export class RegistryModules {
  private readonly modules = new Map<string, ModuleRegistries | undefined>();

  constructor(private readonly read: ReadModule) {}

  /** The registries `file` hands declarations to, by the local name of the function it calls (none: undefined). */
  of(file: string, questions: NonNullable<FilePlan['registryQuestions']>): ImportedRegistries | undefined {
    const dir = path.dirname(file);
    const found = questions.flatMap(({ local, from, imported }) => {
      const shapes = this.shapesOf(
        moduleFiles(dir, from).find((f) => this.read(f) !== undefined),
        imported,
      );
      return shapes.length > 0 ? [{ local, shapes }] : [];
    });
    return found.length > 0 ? found : undefined;
  }

  /** The shapes of the registries `module`'s export `name` hands its arguments to. */
  private shapesOf(module: string | undefined, name: string): RegistryShape[] {
    const registries = module === undefined ? undefined : this.registriesOf(module);
    const local = registries?.local(name);
    if (!registries || local === undefined || !registries.functions.has(local)) return [];
    const through = registries.registries.filter((r) => r.through?.fn === local);
    // The handler type is in that module: named by its file.
    const shape = (r: Registry): RegistryShape => {
      const plain = plainShape(r);
      return plain.argumentsFirstType ? { ...plain, argumentsFirstType: { ...plain.argumentsFirstType, file: path.basename(module!) } } : plain;
    };
    return (through.length > 0 ? through : registries.registries).map(shape);
  }

  private registriesOf(module: string): ModuleRegistries | undefined {
    if (this.modules.has(module)) return this.modules.get(module);
    let found: ModuleRegistries | undefined;
    const source = this.modules.size < MAX_MODULES ? this.read(module) : undefined;
    try {
      const analysis = source === undefined ? undefined : analyseFile(source, module);
      if (analysis && analysis.registries.length > 0)
        found = { registries: analysis.registries, local: (name) => exportedLocal(analysis, name), functions: new Set(namedFunctions(analysis.index).keys()) };
    } catch {
      found = undefined; // a module that does not parse shows nothing (its own run reports it)
    }
    this.modules.set(module, found);
    return found;
  }
}

/** The registries each file planned hands declarations to, asked once a file and kept for its last transform. */
export class RegistryAnswers {
  readonly found = new Map<string, NonNullable<TransformOptions['registries']>>();
  private readonly asked = new Set<string>();

  constructor(
    private readonly modules: RegistryModules,
    known: ReadonlyMap<string, NonNullable<TransformOptions['registries']>>,
  ) {
    for (const [file, registries] of known) this.found.set(file, registries);
  }

  of(file: string, questions: NonNullable<FilePlan['registryQuestions']>): TransformOptions['registries'] {
    if (!this.asked.has(file)) {
      this.asked.add(file);
      const registries = this.found.get(file) ?? this.modules.of(file, questions);
      if (registries) this.found.set(file, registries);
    }
    return this.found.get(file);
  }
}
