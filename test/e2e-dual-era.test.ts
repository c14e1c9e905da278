// End to end through the real SDK: a server written for both eras by hand
// (fixtures/dual-era-arms: push-style arms for 2025 clients beside inputRequired arms) loses
// its 2025-era arms. On the 2025 era the SDK's shim then serves the inputRequired arms: the
// client is asked the same questions, gets the same results, and the world sees the same
// effects, once, as with the arms the migration deleted; the 2026-07-28 era is as it was.
import type { ServeStdioOptions, StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { fixtureCases, importFixture } from './support/fixtures.ts';
import { runCalls, type ClientScript, type Era, type Question, type ToolCall } from './support/harness.ts';

type DeskModule = { serve(world: World, options?: ServeStdioOptions): StdioServerHandle };

const FIXTURE = 'dual-era-arms';
const CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } };

interface Scenario {
  call: ToolCall;
  script: ClientScript;
  /** The log the 2025 arm produces: pinned so the comparison cannot pass vacuously. */
  legacyLog: string[];
}

const accept = (content?: Record<string, unknown>) => ({ action: 'accept' as const, ...(content ? { content } : {}) });

/** The user: confirms, picks row B and seat 12, signs in. */
const user: ClientScript['elicit'] = (params) => {
  const message = String(params.message);
  if (message.startsWith('Cancel')) return accept({ confirm: true });
  if (message === 'Which row?') return accept({ row: 'B' });
  if (message.startsWith('Which seat')) return accept({ seat: 12 });
  return accept();
};

const scenarios: Record<string, Scenario> = {
  'the legacy arm returns early (confirmed)': {
    call: { name: 'cancel_booking', arguments: { booking: 'logs' } },
    script: { elicit: user },
    legacyLog: ['delete:logs=3'],
  },
  'the legacy arm returns early (declined)': {
    call: { name: 'cancel_booking', arguments: { booking: 'users' } },
    script: { elicit: () => ({ action: 'decline' }) },
    legacyLog: [],
  },
  'an if and its else, sampling': {
    call: { name: 'summarise_trip', arguments: { notes: 'two days in Porto' } },
    script: {
      sample: (params) => ({
        role: 'assistant',
        model: 'scripted',
        content: { type: 'text', text: `${String((params.messages as Array<{ content: { text: string } }>)[0]!.content.text).length} chars` },
      }),
    },
    legacyLog: ['audit:summary:28 chars'],
  },
  'the modern arm first, two questions in the legacy one': {
    call: { name: 'pick_seat' },
    script: { elicit: user },
    legacyLog: ['audit:seat:B12'],
  },
  'a URL elicitation (accepted)': {
    call: { name: 'link_wallet', arguments: { provider: 'acme' } },
    script: { elicit: user },
    legacyLog: ['audit:linked:acme'],
  },
  'a URL elicitation (declined)': {
    call: { name: 'link_wallet', arguments: { provider: 'acme' } },
    script: { elicit: () => ({ action: 'decline' }) },
    legacyLog: [],
  },
};

/** A URL question's elicitationId is made up afresh each time (by the 2025 arm, or by the shim). */
const withoutElicitationId = (questions: Question[]) =>
  questions.map((q) => ({ ...q, params: { ...(q.params as Record<string, unknown>), elicitationId: undefined } }));

async function record(module: DeskModule, era: Era, scenario: Scenario, script: ClientScript = scenario.script) {
  const world = createWorld();
  const recording = await runCalls({ serve: (options) => module.serve(world, options) }, era, [scenario.call], script, CAPABILITIES);
  return { ...recording, questions: withoutElicitationId(recording.questions), log: world.log };
}

describe.each(Object.entries(scenarios))('%s', (_name, scenario) => {
  it('is served on the 2025 era as its deleted arm served it, and on 2026-07-28 as before', async () => {
    const input = await importFixture<DeskModule>(FIXTURE, 'input');
    const legacy = await record(input, 'legacy', scenario);
    expect(legacy.log).toEqual(scenario.legacyLog);
    expect(legacy.questions.length).toBeGreaterThan(0);
    expect(JSON.stringify(legacy.results)).not.toContain('isError');

    const output = await importFixture<DeskModule>(FIXTURE, 'output');
    const runs: Array<[string, DeskModule, Era]> = [
      ['input', input, 'modern'],
      ['output', output, 'legacy'],
      ['output', output, 'modern'],
    ];
    for (const [which, module, era] of runs) {
      const run = await record(module, era, scenario);
      expect(run.era).toBe(era);
      expect({ which, era, results: run.results }).toEqual({ which, era, results: legacy.results });
      expect({ which, era, questions: run.questions }).toEqual({ which, era, questions: legacy.questions });
      expect({ which, era, log: run.log }).toEqual({ which, era, log: legacy.log });
    }
  });
});

it('the migrated server pushes no request: on the 2025 era its questions are the shim’s', () => {
  const fixture = fixtureCases().find((c) => c.name === FIXTURE)!;
  const push = /mcpReq\.(elicitInput|requestSampling)\(/;
  expect(fixture.input).toMatch(push);
  expect(fixture.output).not.toMatch(push);
});

// The one thing a 2025 client sees change: the deleted arm told it when the user was done
// signing in; the shim asks the URL question without that notification (it is optional).
it('2025 clients no longer get the URL arm’s notifications/elicitation/complete', async () => {
  const scenario = scenarios['a URL elicitation (accepted)']!;
  const counted = async (module: DeskModule) => {
    const completed: unknown[] = [];
    await record(module, 'legacy', scenario, { ...scenario.script, elicitationComplete: (params) => completed.push(params.elicitationId) });
    return completed;
  };
  expect(await counted(await importFixture<DeskModule>(FIXTURE, 'input'))).toEqual([expect.any(String)]);
  expect(await counted(await importFixture<DeskModule>(FIXTURE, 'output'))).toEqual([]);
});
