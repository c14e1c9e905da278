// Type facts for a lint (`check`): a lint needs to know whether a request is still there, not
// the types of the locals a migration would carry. Lifted locals are taken as they are (so a
// site reads as migratable, which is what `check` reports); only the question of whether a
// receiver is really an MCP SDK object goes to the checker, and only for files that ask it.
// This keeps `check` off the TypeScript checker (seconds and ~300 MB) in all but those files.
import { TsTypeFactsProvider } from '../analyse/ts-type-facts.ts';
import type { TypeFacts } from '../analyse/type-facts.ts';
import type { TypeFactsNeed, TypeFactsSource } from '../transform.ts';

export class LintTypeFacts implements TypeFactsSource {
  private checker?: TsTypeFactsProvider;

  async forFile(fileName: string, source: string, need?: TypeFactsNeed): Promise<TypeFacts> {
    const permissive: TypeFacts = { local: () => ({ text: 'unknown', jsonSafe: true }) };
    if (need && !need.receivers) return permissive;
    const real = await (this.checker ??= new TsTypeFactsProvider()).forFile(fileName, source);
    return { ...permissive, fromSdk: real.fromSdk };
  }
}
