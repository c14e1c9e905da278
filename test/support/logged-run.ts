// A server that logs its side effects, run on one era, and the check an equivalence test makes:
// the migrated server gives on both eras the results, questions and effect log the original gave.
import type { McpServer } from '@modelcontextprotocol/server';
import { expect } from 'vitest';
import { runCalls, type ClientScript, type Era, type Recording, type ToolCall } from './harness.ts';

export type LoggingServer = { createServer(log: string[]): McpServer };
export type LoggedRecording = Recording & { log: string[] };

/** What a client that does not declare roots declares. */
const WITHOUT_ROOTS = { elicitation: { form: {} }, sampling: {} };

/** The calls run on one server, with the effects it logged; `declaresRoots: false` for a client that does not declare roots. */
export async function runLogged(
  server: LoggingServer,
  era: Era,
  calls: ToolCall[],
  roots: ClientScript['roots'],
  declaresRoots = true,
): Promise<LoggedRecording> {
  const log: string[] = [];
  const recording = await runCalls(() => server.createServer(log), era, calls, { roots }, declaresRoots ? undefined : WITHOUT_ROOTS);
  return { ...recording, log };
}

/** The migrated server, run by `run` on both eras, gives what the original gave on the 2025 era. */
export async function expectSameOnBothEras(
  original: LoggedRecording,
  migrated: LoggingServer,
  run: (server: LoggingServer, era: Era) => Promise<LoggedRecording>,
): Promise<void> {
  for (const era of ['modern', 'legacy'] as const) {
    const again = await run(migrated, era);
    expect({ era, results: again.results, questions: again.questions, log: again.log }).toEqual({
      era,
      results: original.results,
      questions: original.questions,
      log: original.log,
    });
  }
}

/** The first text of each result. */
export const texts = (r: Recording): string[] => r.results.map((x) => (x as { content: Array<{ text: string }> }).content[0]!.text);
