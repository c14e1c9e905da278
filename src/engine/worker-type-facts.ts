// Type facts from a worker thread: the TypeScript checker is the one expensive part of a run
// (seconds of reading and checking declarations), and its work does not depend on the files
// the main thread is still reading, parsing and planning. Started by `prepare` (the engine
// calls it at the first TypeScript candidate) or by the first question, so a run that never
// reaches one never starts it; the main thread goes on with other files while a file waits
// for its answers.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { factsFromAnswers } from '../analyse/ts-type-facts.ts';
import type { TypeFacts, TypeQuestions } from '../analyse/type-facts.ts';
import type { WorkerMessage, WorkerReply } from '../analyse/type-facts-worker.ts';
import type { TypeFactsSource } from '../transform.ts';

// The thread's entry sits beside this module: compiled JavaScript in the published package, or
// the TypeScript source when the codemod runs from a checkout (tests, the benchmark) under a
// loader (tsx, vitest). A worker starts without the parent's loader, so from source it
// registers tsx (with our own tsconfig) before importing its entry.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL(`../analyse/type-facts-worker.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url);
const TSX_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsxApi).then(({ register }) => {
  register({ tsconfig: workerData.tsconfig });
  return import(workerData.entry);
});
`;

/** tsx's ESM registration API, as its package exports it (`tsx/esm/api`, import condition). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const exported = (require(manifest) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
  return pathToFileURL(path.join(path.dirname(manifest), exported)).href;
}

function startThread(): Worker {
  if (!FROM_SOURCE) return new Worker(ENTRY);
  const tsconfig = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
  return new Worker(TSX_BOOTSTRAP, { eval: true, workerData: { tsxApi: tsxEsmApi(), tsconfig, entry: ENTRY.href } });
}

export class WorkerTypeFacts implements TypeFactsSource {
  private worker?: Worker;
  private failure?: Error;
  /** Set by flush until close: a thread started later is told at once. */
  private flushed = false;
  private nextId = 1;
  private readonly waiting = new Map<number, { questions: TypeQuestions; resolve: (facts: TypeFacts) => void; reject: (error: unknown) => void }>();

  forFile(fileName: string, source: string, questions: TypeQuestions): Promise<TypeFacts> {
    if (this.failure) return Promise.reject(this.failure);
    const worker = (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { questions, resolve, reject });
      // Keep the process alive while answers are owed, and only then.
      worker.ref();
      worker.postMessage({ kind: 'ask', id, fileName, source, questions } satisfies WorkerMessage);
    });
  }

  /** Starts the thread (it loads TypeScript at once) so that it is ready for the first question. */
  prepare(): void {
    if (!this.failure) this.worker ??= this.start();
  }

  /** Every file has been read: answer what waits, and from now on answer as questions come. */
  flush(): void {
    this.flushed = true;
    this.worker?.postMessage({ kind: 'flush' } satisfies WorkerMessage);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.flushed = false;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const worker = startThread();
    worker.unref();
    if (this.flushed) worker.postMessage({ kind: 'flush' } satisfies WorkerMessage);
    worker.on('message', (reply: WorkerReply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('error' in reply) waiter.reject(new Error(`type checker: ${reply.error}`));
      else waiter.resolve(factsFromAnswers(waiter.questions, reply.answers));
    });
    const fail = (error: Error) => {
      this.failure = new Error(`the type checker's thread stopped: ${error.message}`);
      for (const waiter of this.waiting.values()) waiter.reject(this.failure);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('messageerror', fail);
    // Any exit but the one close() asks for: later questions fail at once instead of waiting.
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      fail(new Error(`exit code ${code}`));
    });
    return worker;
  }
}
