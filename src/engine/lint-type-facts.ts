// Type facts for a lint (`check`): a lint needs to know whether a request is still there, not
// the types of the locals a migration would carry. Lifted locals are taken as they are (so a
// site reads as migratable, which is what `check` reports); only the question of whether a
// receiver is really an MCP SDK object goes to the checker, and only for files that ask it.
// This keeps `check` off the TypeScript checker (seconds and ~200 MB) in all but those files.
import type { TypeFacts, TypeQuestions } from '../analyse/type-facts.ts';
import type { TypeFactsSource } from '../transform.ts';
import { WorkerTypeFacts } from './worker-type-facts.ts';

export class LintTypeFacts implements TypeFactsSource {
  // Starts no thread until a receiver is asked about, and remembers a flush made before.
  private readonly checker = new WorkerTypeFacts();

  async forFile(fileName: string, source: string, questions: TypeQuestions): Promise<TypeFacts> {
    const permissive: TypeFacts = { local: () => ({ text: 'unknown', jsonSafe: true }) };
    if (questions.receivers.length === 0) return permissive;
    const real = await this.checker.forFile(fileName, source, { locals: [], receivers: questions.receivers });
    return { ...permissive, fromSdk: real.fromSdk };
  }

  flush(): void {
    this.checker.flush();
  }

  async close(): Promise<void> {
    await this.checker.close();
  }
}
