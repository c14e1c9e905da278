// The type checker's thread (started by src/engine/worker-type-facts.ts, at the first
// question). It loads TypeScript as soon as it starts, while the main thread is still reading
// and analysing files, and answers in rounds, one program a round:
// - the first round starts with the first question: it pays for reading the standard library
//   and the SDK's declarations (a second or more) while the main thread reads on;
// - later rounds gather questions: each builds a new program and checker (the declarations
//   are reused), about a tenth of a second before the first answer, so a round of one file
//   costs nearly what a round of many does. A round starts once MIN_ROUND_FILES wait and the
//   thread is free; or when the main thread has read every file (`flush`: from then on every
//   question is answered as soon as the thread is free), or waits for answers before it reads
//   on (`hurry`), or has asked nothing for a while;
// - a round takes at most MAX_ROUND_FILES files, the oldest first: a round's program holds
//   every file of it, so a larger round would cost memory in proportion to the project.
import { setFlagsFromString } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { loadCarriedDeclarations, loadTypeScript } from './load-typescript.ts';
import { MIN_ROUND_FILES, QUIET_MS, TypeScriptFacts, type TypeAnswers, type TypeRequest } from './ts-type-facts.ts';

export type WorkerMessage = ({ kind: 'ask'; id: number } & TypeRequest) | { kind: 'flush' } | { kind: 'hurry' };

export type WorkerReply = { id: number; answers: TypeAnswers } | { id: number; error: string };

/** A round takes no more files than this (it bounds the memory of a round). */
const MAX_ROUND_FILES = 64;

// Each round's checker is garbage once the round is answered, and V8 lets a heap grow to
// several times what is alive between full collections: the checker's thread held about
// 150 MB alive but grew to 400 MB over 40,000 files (and the process to 885 MB). Growing by a
// fifth at most keeps it near what is alive, for about the same CPU time (bench/README.md).
// The flag is the process's: it holds for the main thread from now on too.
setFlagsFromString('--heap-growing-percent=20');

const port = parentPort!;
const facts = new TypeScriptFacts(loadTypeScript(), loadCarriedDeclarations());
const pending: Array<{ id: number } & TypeRequest> = [];
let rounds = 0;
let flushed = false;
let scheduled = false;
let quiet: NodeJS.Timeout | undefined;

port.on('message', (message: WorkerMessage) => {
  if (message.kind === 'flush') flushed = true;
  else if (message.kind === 'ask') pending.push(message);
  clearTimeout(quiet);
  if (message.kind === 'ask' && rounds > 0 && !flushed && pending.length < MIN_ROUND_FILES) {
    quiet = setTimeout(schedule, QUIET_MS);
    return;
  }
  schedule();
});

/** Starts a round with what waits, once the thread is free. */
function schedule(): void {
  if (scheduled || pending.length === 0) return;
  scheduled = true;
  // After the messages already queued on the port have been taken in.
  setImmediate(round);
}

function round(): void {
  scheduled = false;
  const batch = pending.splice(0, MAX_ROUND_FILES);
  rounds++;
  let replies: WorkerReply[];
  try {
    const answers = facts.answer(batch);
    replies = batch.map((request, i) => ({ id: request.id, answers: answers[i]! }));
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    replies = batch.map((request) => ({ id: request.id, error: message }));
  }
  for (const reply of replies) port.postMessage(reply);
  // Once the port has handed over the questions that came during the round: the next round at
  // once when enough wait (or every file has been read), else after a quiet spell.
  setImmediate(() => {
    clearTimeout(quiet);
    if (flushed || pending.length >= MIN_ROUND_FILES) schedule();
    else if (pending.length > 0) quiet = setTimeout(schedule, QUIET_MS);
  });
}
