// A receiver this file declares as its own stand-in for the SDK's Server (an interface or type
// literal with push methods) is in doubt whatever the checker says, so it is not asked: a run
// whose only doubt is such a look-alike never starts the checker. The checker, asked here as
// the oracle, can tell no more.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { loadTypeScript } from '../src/analyse/load-typescript.ts';
import { TypeScriptFacts } from '../src/analyse/ts-type-facts.ts';
import { planOrQuestions } from '../src/transform.ts';
import { checkoutScratch } from './support/scratch.ts';

let dir: string;

beforeAll(async () => {
  dir = checkoutScratch('stand-in-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const GATEWAY = `export interface ChatGateway {
  server: { createMessage(request: { prompt: string; maxTokens: number }): Promise<{ text: string }> };
}
`;

const uses = (declaration: string) => `${declaration}
export async function completeDraft(llm: ChatGateway, draft: string): Promise<string> {
  const { text } = await llm.server.createMessage({ prompt: \`Improve: \${draft}\`, maxTokens: 300 });
  return text;
}
`;

describe('a look-alike the file declares', () => {
  it('is marked without asking the checker, which could tell no more', async () => {
    const source = uses(GATEWAY);
    const fileName = path.join(dir, 'gateway.ts');
    await writeFile(fileName, source);
    const analysis = analyseFile(source, fileName);
    expect(analysis.sites.map((s) => [s.uncertain, s.standIn])).toEqual([[true, true]]);

    const step = planOrQuestions(analysis);
    expect('plan' in step && step.plan.sites.map((s) => [s.line, s.status, s.code])).toEqual([[6, 'marked', 'unknown-receiver']]);

    // What the checker says of the receiver and of `llm`: nothing that would settle it.
    const site = analysis.sites[0]!;
    const receivers = [site.receiver, site.asked!].map((n) => ({ start: n.start!, end: n.end! }));
    const [answers] = new TypeScriptFacts(loadTypeScript()).answer([{ fileName, source, questions: { locals: [], receivers } }]);
    expect(answers!.receivers).toEqual([null, false]);
  });

  it('is still asked about when its type comes from another module', async () => {
    await writeFile(path.join(dir, 'gateway-type.ts'), GATEWAY);
    const source = uses("import type { ChatGateway } from './gateway-type.ts';");
    const analysis = analyseFile(source, path.join(dir, 'elsewhere.ts'));
    expect(analysis.sites.map((s) => [s.uncertain, s.standIn])).toEqual([[true, undefined]]);
    const step = planOrQuestions(analysis);
    expect('questions' in step && step.questions.receivers.length).toBe(2);
  });
});
