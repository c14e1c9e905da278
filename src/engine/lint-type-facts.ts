// Type facts for a lint (`check`): a lint needs to know whether a request is still there, and
// what migrate would do with it. Where no site of a file would migrate, the types of the locals
// a migration would carry change nothing: they are taken as they are, and only the question of
// whether a receiver is really an MCP SDK object goes to the checker. Where a site would
// migrate, the planner asks what migrate asks (see TypeFactsSource.everyLocal) and the checker
// answers it all, so that a site migrate refuses for a local that is not JSON is not called
// fixable. This keeps `check` off the TypeScript checker (seconds and ~200 MB) on a migrated
// tree and on files that ask nothing.
import type { LocalTypeFact, TypeFacts, TypeQuestions } from '../analyse/type-facts.ts';
import type { TypeFactsSource } from '../transform.ts';
import { WorkerTypeFacts } from './worker-type-facts.ts';

/** What a lint takes every lifted local to be where none would travel. */
export const LINT_LOCAL: LocalTypeFact = Object.freeze({ text: 'unknown', jsonSafe: true, primitive: true });

export class LintTypeFacts implements TypeFactsSource {
  // Starts no thread until a file asks, and remembers a flush made before.
  private readonly checker = new WorkerTypeFacts();
  readonly everyLocal = LINT_LOCAL;

  async forFile(fileName: string, source: string, questions: TypeQuestions): Promise<TypeFacts> {
    if (asksOfLocals(questions)) return this.checker.forFile(fileName, source, questions);
    if (questions.receivers.length === 0) return lintFacts();
    return lintFacts(await this.checker.forFile(fileName, source, questions));
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

/** Whether the planner asks what migrate asks (a site would migrate): then the checker answers all of it. */
export function asksOfLocals(questions: TypeQuestions): boolean {
  return questions.locals.length > 0 || (questions.methods?.length ?? 0) > 0 || (questions.values?.length ?? 0) > 0;
}

/**
 * A lint's facts where no site would migrate: every local taken as it is, and every method a
 * standard-library value has that only reads it (`get`, `find`) taken for such a read; whether
 * a receiver is the SDK's, from `checked` (the checker's answers about receivers).
 */
export function lintFacts(checked?: TypeFacts): TypeFacts {
  return { local: () => LINT_LOCAL, readsOnly: () => true, ...(checked ? { fromSdk: checked.fromSdk } : {}) };
}
