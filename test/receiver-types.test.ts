// Doubtful receivers answered from the file's own declarations and imports
// (src/analyse/receiver-types.ts) before the checker is asked: each answer given is the one
// the checker gives (it is asked too, here, as the oracle), and what the file does not say is
// left to it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseFile } from '../src/analyse/analyse-file.ts';
import { loadTypeScript } from '../src/analyse/load-typescript.ts';
import { receiversFromDeclarations } from '../src/analyse/receiver-types.ts';
import { TypeScriptFacts } from '../src/analyse/ts-type-facts.ts';
import { planOrQuestions } from '../src/transform.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let dir: string;

beforeAll(async () => {
  await mkdir(path.join(ROOT, '.tmp'), { recursive: true });
  dir = await mkdtemp(path.join(ROOT, '.tmp', 'receiver-types-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ASK = "({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 })";

/** Each sample: a module, and the answer expected for each doubtful receiver, in source order (undefined: left to the checker). */
const SAMPLES: Record<string, { source: string; expected: Array<boolean | undefined> }> = {
  'a constructor parameter property annotated McpServer': {
    source: `import type { McpServer } from '@modelcontextprotocol/server';
export class Summaries {
  constructor(private readonly mcp: McpServer) {}
  async one(): Promise<unknown> {
    return this.mcp.server.createMessage${ASK};
  }
}
`,
    expected: [true],
  },
  'a class field annotated McpServer, reached through an arrow function': {
    source: `import { McpServer as Mcp } from '@modelcontextprotocol/server';
export class Titles {
  private readonly mcp: Mcp;
  constructor(mcp: Mcp) {
    this.mcp = mcp;
  }
  all(texts: string[]): Promise<unknown[]> {
    return Promise.all(texts.map(async () => this.mcp.server.createMessage${ASK}));
  }
}
`,
    expected: [true],
  },
  'look-alikes written in the file: an interface, a type alias, a type literal, a class': {
    source: `export interface ChatGateway {
  server: { createMessage(request: unknown): Promise<{ text: string }> };
}
type Relay = { server: ChatServer };
class ChatServer {
  async createMessage(request: unknown): Promise<string> {
    return String(request);
  }
}
export async function viaInterface(llm: ChatGateway) {
  return llm.server.createMessage${ASK};
}
export async function viaAlias(relay: Relay) {
  return relay.server.createMessage${ASK};
}
export async function viaLiteral(bot: { server: { createMessage(r: unknown): Promise<void> } }) {
  return bot.server.createMessage${ASK};
}
`,
    expected: [false, false, false],
  },
  'what the file does not say: an inferred member, a name bound twice, another module, a namespace, a subclass, a type parameter, this in a function': {
    source: `import * as sdk from '@modelcontextprotocol/server';
import { McpServer } from '@modelcontextprotocol/server';
import type { Gateway } from './gateway.js';
class Inferred {
  server = { createMessage: async (r: unknown) => r };
  async go() {
    return this.server.createMessage${ASK};
  }
}
export async function twice(llm: { server: { createMessage(r: unknown): Promise<void> } }) {
  {
    const llm = { server: { createMessage: async (r: unknown) => r } };
    void llm;
  }
  return llm.server.createMessage${ASK};
}
export async function elsewhere(gw: Gateway) {
  return gw.server.createMessage${ASK};
}
export async function spaced(viaNamespace: sdk.McpServer) {
  return viaNamespace.server.createMessage${ASK};
}
export class Mine extends McpServer {
  async ask() {
    return this.server.createMessage${ASK};
  }
}
export async function generic<T extends McpServer>(m: T) {
  return m.server.createMessage${ASK};
}
export class Old {
  constructor(private readonly mcp: McpServer) {}
  ask() {
    const self = this;
    return function (this: { mcp: McpServer }) {
      return this.mcp.server.createMessage${ASK};
    }.call(self);
  }
}
`,
    expected: [undefined, undefined, undefined, undefined, undefined, undefined, undefined],
  },
};

describe('doubtful receivers, from the file', () => {
  const facts = new TypeScriptFacts(loadTypeScript());

  it.each(Object.keys(SAMPLES))('%s', async (name) => {
    const { source, expected } = SAMPLES[name]!;
    const fileName = path.join(dir, `${name.replace(/\W+/g, '-').slice(0, 40)}.ts`);
    await writeFile(fileName, source);
    await writeFile(path.join(dir, 'gateway.ts'), 'export interface Gateway { server: { createMessage(r: unknown): Promise<void> } }\n');
    const analysis = analyseFile(source, fileName);
    const doubtful = analysis.sites.filter((s) => s.uncertain).map((s) => ({ start: s.receiver.start!, end: s.receiver.end! }));
    expect(doubtful).toHaveLength(expected.length);

    const verdicts = receiversFromDeclarations(analysis);
    expect(doubtful.map((r) => verdicts.get(`${r.start}:${r.end}`))).toEqual(expected);
    // The checker, asked about every one of them, agrees with each answer given.
    const [checked] = facts.answer([{ fileName, source, questions: { locals: [], receivers: doubtful } }]);
    doubtful.forEach((r, i) => {
      const verdict = verdicts.get(`${r.start}:${r.end}`);
      if (verdict !== undefined) expect(checked!.receivers[i], `receiver ${i}`).toBe(verdict);
    });
  });

  it('asks the checker nothing about a receiver the file answers; the look-alike is no site, the SDK call is one', () => {
    const { source } = SAMPLES['a constructor parameter property annotated McpServer']!;
    const lookAlike = SAMPLES['look-alikes written in the file: an interface, a type alias, a type literal, a class']!.source;
    const step = planOrQuestions(analyseFile(`${source}${lookAlike.replace(/^export /gm, '')}`, path.join(dir, 'both.ts')));
    expect('plan' in step && step.plan.sites.map((s) => [s.line, s.status, s.code])).toEqual([[5, 'marked', 'no-request-to-answer']]);
  });
});
