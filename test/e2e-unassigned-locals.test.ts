// End to end through the real SDK: locals declared unassigned before their questions
// (fixtures/unassigned-local-assigned-by-question). One assigned by each question is not
// carried; one assigned before the question is, and the retry reads the value the first call
// took (the original takes each carrier from the list once). Both eras give what the
// original gave on 2025: results, questions and the effects logged.
import { describe, expect, it } from 'vitest';
import { importFixture } from './support/fixtures.ts';
import { expectSameOnBothEras, texts, type LoggedRecording, type LoggingServer } from './support/logged-run.ts';
import { runCalls, type ClientScript, type Era, type ToolCall } from './support/harness.ts';

const FIXTURE = 'unassigned-local-assigned-by-question';

const CALLS: ToolCall[] = [
  { name: 'ship', arguments: { gift: true } },
  { name: 'ship', arguments: { gift: false } },
  { name: 'track', arguments: { express: true } },
  { name: 'track', arguments: { express: false } },
  { name: 'track', arguments: { express: true } },
];

/** The user: writes a note, gives an email, picks an airport. */
const SCRIPT: ClientScript = {
  elicit: (params) => {
    const message = String(params.message);
    if (message === 'Gift note?') return { action: 'accept', content: { note: 'enjoy' } };
    if (message === 'Invoice email?') return { action: 'decline' };
    return { action: 'accept', content: { code: message.includes('sea') ? 'OPO' : 'LIS' } };
  },
};

async function run(server: LoggingServer, era: Era): Promise<LoggedRecording> {
  const log: string[] = [];
  return { ...(await runCalls(() => server.createServer(log), era, CALLS, SCRIPT)), log };
}

describe('locals declared unassigned before their questions', () => {
  it('migrated, give on both eras what the original gave', async () => {
    const original = await importFixture<LoggingServer>(FIXTURE, 'input');
    const before = await run(original, 'legacy');
    expect(texts(before)).toEqual(['Shipped (accept).', 'Shipped (decline).', 'Tracked by sea.', 'Tracked by road.', 'Tracked by rail.']);
    expect(before.log).toEqual(['gift:accept', 'invoice:decline', 'sea:OPO', 'rail:LIS']);
    await expectSameOnBothEras(before, await importFixture<LoggingServer>(FIXTURE, 'output'), run);
  }, 60_000);
});
