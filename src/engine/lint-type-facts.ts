// Type facts for a lint (`check`): a lint needs to know whether a request is still there, not
// the types of the locals a migration would carry. Lifted locals are taken as they are (so a
// site reads as migratable, which is what `check` reports); only the question of whether a
// receiver is really an MCP SDK object goes to the checker, and only for files that ask it.
// This keeps `check` off the TypeScript checker (seconds and ~200 MB) in all but those files.
import type { LocalTypeFact, TypeFacts, TypeQuestions } from '../analyse/type-facts.ts';
import type { TypeFactsSource } from '../transform.ts';
import { WorkerTypeFacts } from './worker-type-facts.ts';

/** What a lint takes every lifted local to be (it asks nothing about them). */
export const LINT_LOCAL: LocalTypeFact = Object.freeze({ text: 'unknown', jsonSafe: true, primitive: true });

export class LintTypeFacts implements TypeFactsSource {
  // Starts no thread until a receiver is asked about, and remembers a flush made before.
  private readonly checker = new WorkerTypeFacts();
  readonly everyLocal = LINT_LOCAL;

  async forFile(fileName: string, source: string, questions: TypeQuestions): Promise<TypeFacts> {
    if (questions.receivers.length === 0) return lintFacts();
    return lintFacts(await this.checker.forFile(fileName, source, receiverQuestions(questions)));
  }

  flush(): void {
    this.checker.flush();
  }

  hurry(): void {
    this.checker.hurry();
  }

  async close(): Promise<void> {
    await this.checker.close();
  }
}

/**
 * A lint's facts: every local taken as it is, and every method a standard-library value has
 * that only reads it (`get`, `find`) taken for such a read (a site reads as migratable);
 * whether a receiver is the SDK's, from `checked` (the answers to receiverQuestions).
 */
export function lintFacts(checked?: TypeFacts): TypeFacts {
  return { local: () => LINT_LOCAL, readsOnly: () => true, ...(checked ? { fromSdk: checked.fromSdk } : {}) };
}

/** Of a plan's questions, those a lint asks the checker. */
export function receiverQuestions(questions: TypeQuestions): TypeQuestions {
  return { locals: [], receivers: questions.receivers };
}
