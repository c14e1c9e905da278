// A helper that may ask (it looks the region up first and asks only when none is given) called
// by an exported function of a second module that is no handler and works on after the answer;
// handlers of a third module call that function, one binding it with import(), and an exported
// function of a fourth module, binding it with import() too, calls it for a fifth module's
// handler. Migrated by the engine, each level is split in turn: the helper into request and
// result halves, each function on the way into halves that ask through the inner ones, and every
// handler asks through the halves of the function it calls. Through the real client, the
// migrated server gives the original's results, asks its questions and records each effect once,
// on both eras: answered without asking, asked and accepted, asked and declined. A function no
// handler reaches that calls one on the way keeps the whole chain whole; each marker names it.
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runCalls, type ClientScript, type Era, type ToolCall } from './support/harness.ts';
import { migratedPair } from './support/migrated-pair.ts';
import { typecheck } from './support/typecheck.ts';

const PROJECT: Record<string, string> = {
  'package.json': `{ "name": "launchpad", "private": true, "type": "module" }
`,
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { createLedger } from './lib/ledger.js';
import { registerDeployTools } from './tools/deploy.js';
import { registerPreviewTools } from './tools/preview.js';
import { registerReleaseTools } from './tools/release.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'launchpad', version: '1.0.0' });
  const ledger = createLedger(log);
  registerDeployTools(server, ledger);
  registerPreviewTools(server, ledger);
  registerReleaseTools(server, ledger);
  return server;
}
`,
  'src/lib/ledger.ts': `// What the tools record: each entry is an effect, logged.
export interface Ledger {
  regions: Set<string>;
  write(entry: string): Promise<void>;
}

export function createLedger(log: string[]): Ledger {
  return {
    regions: new Set(['eu-west', 'us-east']),
    async write(entry) {
      log.push(entry);
    },
  };
}
`,
  'src/lib/region.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Ledger } from './ledger.js';

export interface Region {
  name?: string;
  problem?: string;
}

export async function pickRegion(server: McpServer, ledger: Ledger, given?: string): Promise<Region> {
  await ledger.write(\`region:\${given ?? '?'}\`);
  if (given) return ledger.regions.has(given) ? { name: given } : { problem: \`Unknown region \${given}.\` };
  const answer = await server.server.elicitInput({
    mode: 'form',
    message: 'Which region?',
    requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
  });
  if (answer.action !== 'accept') return { problem: 'No region chosen.' };
  return { name: String(answer.content?.region) };
}
`,
  'src/flows/stage.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Ledger } from '../lib/ledger.js';
import { pickRegion } from '../lib/region.js';

export interface Staged {
  ready: boolean;
  text: string;
}

export async function stageBuild(server: McpServer, ledger: Ledger, region?: string): Promise<Staged> {
  const picked = await pickRegion(server, ledger, region);
  if (!picked.name) return { ready: false, text: picked.problem ?? 'no region' };
  await ledger.write(\`stage:\${picked.name}\`);
  return { ready: true, text: \`staged in \${picked.name}\` };
}
`,
  'src/flows/release.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Ledger } from '../lib/ledger.js';

export async function releaseBuild(server: McpServer, ledger: Ledger, version: string): Promise<string> {
  const { stageBuild } = await import('./stage.js');
  const staged = await stageBuild(server, ledger);
  if (!staged.ready) return \`not released: \${staged.text}\`;
  await ledger.write(\`release:\${version}\`);
  return \`released \${version}, \${staged.text}\`;
}
`,
  'src/tools/deploy.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Ledger } from '../lib/ledger.js';
import { stageBuild } from '../flows/stage.js';

export function registerDeployTools(server: McpServer, ledger: Ledger): void {
  server.registerTool('deploy', { inputSchema: z.object({ region: z.string().optional() }) }, async ({ region }) => {
    const staged = await stageBuild(server, ledger, region);
    if (!staged.ready) return { content: [{ type: 'text', text: staged.text }], isError: true };
    await ledger.write('deploy');
    return { content: [{ type: 'text', text: \`deployed, \${staged.text}\` }] };
  });
}
`,
  'src/tools/preview.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Ledger } from '../lib/ledger.js';

export function registerPreviewTools(server: McpServer, ledger: Ledger): void {
  server.registerTool('preview', { inputSchema: z.object({ region: z.string().optional() }) }, async ({ region }) => {
    const { stageBuild } = await import('../flows/stage.js');
    const staged = await stageBuild(server, ledger, region);
    await ledger.write(\`preview:\${staged.ready}\`);
    return { content: [{ type: 'text', text: \`preview: \${staged.text}\` }] };
  });
}
`,
  'src/tools/release.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Ledger } from '../lib/ledger.js';
import { releaseBuild } from '../flows/release.js';

export function registerReleaseTools(server: McpServer, ledger: Ledger): void {
  server.registerTool('release', { inputSchema: z.object({ version: z.string() }) }, async ({ version }) => {
    const text = await releaseBuild(server, ledger, version);
    return { content: [{ type: 'text', text }] };
  });
}
`,
};

/** The migrated files, as the engine writes them. */
const MIGRATED: Record<string, string> = {
  'src/lib/region.ts': `import type { Ledger } from './ledger.js';
import { inputRequired, type ElicitResult, type InputRequest } from '@modelcontextprotocol/server';

export interface Region {
  name?: string;
  problem?: string;
}

// pickRegion() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each
// handler calls pickRegionRequest(), which resolves to what pickRegion() returned without asking
// ({ value }) or to the question to ask ({ ask }); once answered, pickRegionResult() computes the value.
export async function pickRegionRequest(ledger: Ledger, given?: string): Promise<{ ask: InputRequest } | { value: Region }> {
  await ledger.write(\`region:\${given ?? '?'}\`);
  if (given) return { value: ledger.regions.has(given) ? { name: given } : { problem: \`Unknown region \${given}.\` } };
  return {
    ask: inputRequired.elicit({
      mode: 'form',
      message: 'Which region?',
      requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
    }),
  };
}

export function pickRegionResult(answer: ElicitResult): Region {
  if (answer.action !== 'accept') return { problem: 'No region chosen.' };
  return { name: String(answer.content?.region) };
}
`,
  'src/flows/stage.ts': `import type { ElicitResult, InputRequest } from '@modelcontextprotocol/server';
import type { Ledger } from '../lib/ledger.js';
import { pickRegionRequest, pickRegionResult } from '../lib/region.js';

export interface Staged {
  ready: boolean;
  text: string;
}

// stageBuild() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each
// handler calls stageBuildRequest(), which resolves to the question to ask ({ ask }) or to what stageBuild()
// returned without asking ({ value }); once answered, stageBuildResult() computes it. Both go on in stageBuildThen().
export async function stageBuildRequest(ledger: Ledger, region?: string): Promise<{ ask: InputRequest } | { value: Staged }> {
  const mrtrOutcome = await pickRegionRequest(ledger, region);
  return 'ask' in mrtrOutcome ? mrtrOutcome : { value: await stageBuildThen(mrtrOutcome.value, ledger) };
}

export async function stageBuildResult(mrtrAnswer: ElicitResult, ledger: Ledger): Promise<Staged> {
  return stageBuildThen(pickRegionResult(mrtrAnswer), ledger);
}

export async function stageBuildThen(picked: ReturnType<typeof pickRegionResult>, ledger: Ledger): Promise<Staged> {
  if (!picked.name) return { ready: false, text: picked.problem ?? 'no region' };
  await ledger.write(\`stage:\${picked.name}\`);
  return { ready: true, text: \`staged in \${picked.name}\` };
}
`,
  'src/flows/release.ts': `import type { ElicitResult, InputRequest } from '@modelcontextprotocol/server';
import type { Ledger } from '../lib/ledger.js';

// releaseBuild() was split by mrtr-codemod: a handler cannot be suspended inside a helper, so each
// handler calls releaseBuildRequest(), which resolves to the question to ask ({ ask }) or to what releaseBuild()
// returned without asking ({ value }); once answered, releaseBuildResult() computes it. Both go on in releaseBuildThen().
export async function releaseBuildRequest(ledger: Ledger, version: string): Promise<{ ask: InputRequest } | { value: string }> {
  const { stageBuildRequest } = await import('./stage.js');
  const mrtrOutcome = await stageBuildRequest(ledger);
  return 'ask' in mrtrOutcome ? mrtrOutcome : { value: await releaseBuildThen(mrtrOutcome.value, ledger, version) };
}

export async function releaseBuildResult(mrtrAnswer: ElicitResult, ledger: Ledger, version: string): Promise<string> {
  return releaseBuildThen(await (await import('./stage.js')).stageBuildResult(mrtrAnswer, ledger), ledger, version);
}

export async function releaseBuildThen(staged: Awaited<ReturnType<typeof import('./stage.js').stageBuildResult>>, ledger: Ledger, version: string): Promise<string> {
  if (!staged.ready) return \`not released: \${staged.text}\`;
  await ledger.write(\`release:\${version}\`);
  return \`released \${version}, \${staged.text}\`;
}
`,
  'src/tools/deploy.ts': `import type { McpServer, ElicitResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Ledger } from '../lib/ledger.js';
import { mrtrResume } from '../mrtr-request-state.js';
import { stageBuildRequest, stageBuildResult } from '../flows/stage.js';

export function registerDeployTools(server: McpServer, ledger: Ledger): void {
  server.registerTool('deploy', { inputSchema: z.object({ region: z.string().optional() }) }, async ({ region }, ctx) => {
    const mrtr = await mrtrResume(ctx, 'tool:deploy', ['staged'], { region }, server);
    if (mrtr.refused) return mrtr.refused;
    if (mrtr.step === undefined) {
      const mrtrOutcome = await stageBuildRequest(ledger, region);
      if ('ask' in mrtrOutcome) return mrtr.ask('staged', {}, { staged: mrtrOutcome.ask });
      mrtr.decided('staged', {}, { staged: mrtrOutcome.value });
    }
    const mrtrAnswer = mrtr.value('staged', 'elicit', (answer: ElicitResult) => stageBuildResult(answer, ledger));
    if (mrtrAnswer === undefined) return mrtr.askAgain();
    const staged = await mrtrAnswer.value;
    if (!staged.ready) return { content: [{ type: 'text', text: staged.text }], isError: true };
    await ledger.write('deploy');
    return { content: [{ type: 'text', text: \`deployed, \${staged.text}\` }] };
  });
}
`,
  'src/tools/preview.ts': `import type { McpServer, ElicitResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Ledger } from '../lib/ledger.js';
import { mrtrResume } from '../mrtr-request-state.js';

export function registerPreviewTools(server: McpServer, ledger: Ledger): void {
  server.registerTool('preview', { inputSchema: z.object({ region: z.string().optional() }) }, async ({ region }, ctx) => {
    const mrtr = await mrtrResume(ctx, 'tool:preview', ['staged'], { region }, server);
    if (mrtr.refused) return mrtr.refused;
    const { stageBuildRequest, stageBuildResult } = await import('../flows/stage.js');
    if (mrtr.step === undefined) {
      const mrtrOutcome = await stageBuildRequest(ledger, region);
      if ('ask' in mrtrOutcome) return mrtr.ask('staged', {}, { staged: mrtrOutcome.ask });
      mrtr.decided('staged', {}, { staged: mrtrOutcome.value });
    }
    const mrtrAnswer = mrtr.value('staged', 'elicit', (answer: ElicitResult) => stageBuildResult(answer, ledger));
    if (mrtrAnswer === undefined) return mrtr.askAgain();
    const staged = await mrtrAnswer.value;
    await ledger.write(\`preview:\${staged.ready}\`);
    return { content: [{ type: 'text', text: \`preview: \${staged.text}\` }] };
  });
}
`,
  'src/tools/release.ts': `import type { McpServer, ElicitResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Ledger } from '../lib/ledger.js';
import { mrtrResume } from '../mrtr-request-state.js';
import { releaseBuildRequest, releaseBuildResult } from '../flows/release.js';

export function registerReleaseTools(server: McpServer, ledger: Ledger): void {
  server.registerTool('release', { inputSchema: z.object({ version: z.string() }) }, async ({ version }, ctx) => {
    const mrtr = await mrtrResume(ctx, 'tool:release', ['text'], { version }, server);
    if (mrtr.refused) return mrtr.refused;
    if (mrtr.step === undefined) {
      const mrtrOutcome = await releaseBuildRequest(ledger, version);
      if ('ask' in mrtrOutcome) return mrtr.ask('text', {}, { text: mrtrOutcome.ask });
      mrtr.decided('text', {}, { text: mrtrOutcome.value });
    }
    const mrtrAnswer = mrtr.value('text', 'elicit', (answer: ElicitResult) => releaseBuildResult(answer, ledger, version));
    if (mrtrAnswer === undefined) return mrtr.askAgain();
    const text = await mrtrAnswer.value;
    return { content: [{ type: 'text', text }] };
  });
}
`,
};

/** Known region (no question), asked and accepted, unknown region, through import(), four modules deep (declined, then accepted). */
const CALLS: ToolCall[] = [
  { name: 'deploy', arguments: { region: 'eu-west' } },
  { name: 'deploy', arguments: {} },
  { name: 'deploy', arguments: { region: 'mars' } },
  { name: 'preview', arguments: {} },
  { name: 'release', arguments: { version: '1.2' } },
  { name: 'release', arguments: { version: '1.3' } },
];

/** Answers us-east, then eu-west, declines the third question, then answers eu-west. */
function script(): ClientScript {
  let asked = 0;
  return {
    elicit: () => {
      asked++;
      return asked === 3 ? { action: 'decline' } : { action: 'accept', content: { region: asked % 2 ? 'us-east' : 'eu-west' } };
    },
  };
}

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('deep-splits-', PROJECT);
const { read, load } = pair;

const run = async (server: ServerModule, era: Era) => {
  const log: string[] = [];
  const recording = await runCalls(() => server.createServer(log), era, CALLS, script());
  return { results: recording.results, questions: recording.questions, log };
};

const texts = (results: unknown[]) => results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text);

describe('a helper that may ask, reached through exported functions of other modules', () => {
  it('is split at every level, and each handler asks through the halves of the function it calls', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/lib/region.ts', 'migrated', undefined]]);
    for (const [file, text] of Object.entries(MIGRATED)) expect(await read('migrated', file), file).toBe(text);
    expect(await read('migrated', 'src/lib/ledger.ts')).toBe(PROJECT['src/lib/ledger.ts']);
  });

  it('typechecks, and a second run changes nothing', async () => {
    const files = Object.keys(PROJECT).filter((f) => f.endsWith('.ts'));
    expect(await pair.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('asks where it did and records each thing once, on both eras', async () => {
    const original = await run(await load('original'), 'legacy');
    expect(texts(original.results)).toEqual([
      'deployed, staged in eu-west',
      'deployed, staged in us-east',
      'Unknown region mars.',
      'preview: staged in eu-west',
      'not released: No region chosen.',
      'released 1.3, staged in eu-west',
    ]);
    expect(original.questions.length).toBe(4);
    expect(original.log).toEqual([
      'region:eu-west',
      'stage:eu-west',
      'deploy',
      'region:?',
      'stage:us-east',
      'deploy',
      'region:mars',
      'region:?',
      'stage:eu-west',
      'preview:true',
      'region:?',
      'region:?',
      'stage:eu-west',
      'release:1.3',
    ]);
    const migrated = await load('migrated');
    for (const era of ['modern', 'legacy'] as const) expect({ era, ...(await run(migrated, era)) }).toEqual({ era, ...original });
  });
});

// The same server with a warm-up a timer starts: its function calls `stageBuild()` and no handler
// reaches it. The helper's question reads a local, so no function on the way can stay under its
// name for that call (plan/legacy-entry.ts): it keeps them whole.
const WARMED: Record<string, string> = {
  ...PROJECT,
  'src/lib/region.ts': PROJECT['src/lib/region.ts']!.replace(
    "  const answer = await server.server.elicitInput({\n    mode: 'form',\n    message: 'Which region?',",
    "  const question = 'Which region?';\n  const answer = await server.server.elicitInput({\n    mode: 'form',\n    message: question,",
  ),
  'src/jobs/warm.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Ledger } from '../lib/ledger.js';
import { stageBuild } from '../flows/stage.js';

async function warmUp(server: McpServer, ledger: Ledger): Promise<void> {
  await stageBuild(server, ledger, 'eu-west');
}

export function scheduleWarmUp(server: McpServer, ledger: Ledger): void {
  setTimeout(() => void warmUp(server, ledger), 1000);
}
`,
};

const warmed = migratedPair('deep-splits-refused-', WARMED);

/** `text` with `marker` inserted above the line that holds `at`, indented as it. */
function markedAbove(text: string, at: string, marker: string): string {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(at));
  return [...lines.slice(0, i), `${/^\s*/.exec(lines[i]!)![0]}${marker}`, ...lines.slice(i)].join('\n');
}

describe('a function on the way that a call no handler reaches keeps whole', () => {
  it('keeps every level whole, and each marker names that call and its line', async () => {
    expect(warmed.result.errors).toEqual([]);
    expect(warmed.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/lib/region.ts', 13, 'marked', 'in-helper'],
      ['src/tools/deploy.ts', 8, 'marked', 'via-helper'],
      ['src/tools/preview.ts', 8, 'marked', 'via-helper'],
      ['src/tools/release.ts', 8, 'marked', 'via-helper'],
    ]);
    const handlerMarker = '// @mrtr-todo(via-helper): no handler reaches caller `warmUp()` (warm.ts:6) — call it in a tool or drop the call';
    expect(WARMED['src/lib/region.ts']).toContain('message: question,');
    expect(await warmed.read('migrated', 'src/lib/region.ts')).toBe(
      markedAbove(
        WARMED['src/lib/region.ts']!,
        'await server.server.elicitInput(',
        '// @mrtr-todo(in-helper): no handler reaches its caller `warmUp()` (warm.ts:6) — call it in a tool or drop the call',
      ),
    );
    expect(await warmed.read('migrated', 'src/tools/deploy.ts')).toBe(markedAbove(PROJECT['src/tools/deploy.ts']!, 'await stageBuild(', handlerMarker));
    expect(await warmed.read('migrated', 'src/tools/preview.ts')).toBe(markedAbove(PROJECT['src/tools/preview.ts']!, 'await stageBuild(', handlerMarker));
    expect(await warmed.read('migrated', 'src/tools/release.ts')).toBe(markedAbove(PROJECT['src/tools/release.ts']!, 'await releaseBuild(', handlerMarker));
    for (const file of ['src/flows/stage.ts', 'src/flows/release.ts', 'src/jobs/warm.ts']) expect(await warmed.read('migrated', file), file).toBe(WARMED[file]);
    const files = Object.keys(WARMED).filter((f) => f.endsWith('.ts'));
    expect(typecheck(files.map((f) => path.join(warmed.root, 'migrated', f)))).toEqual([]);
  });
});

// The same server with the second module's function asking inside a try (its catch would run
// again on the retry), and a handler of the third module that calls the helper itself. The
// helper's question reads a local, so it cannot stay under its name for the function's call
// (plan/legacy-entry.ts): that call keeps it whole.
const TRIED: Record<string, string> = {
  ...PROJECT,
  'src/lib/region.ts': PROJECT['src/lib/region.ts']!.replace(
    "  const answer = await server.server.elicitInput({\n    mode: 'form',\n    message: 'Which region?',",
    "  const question = 'Which region?';\n  const answer = await server.server.elicitInput({\n    mode: 'form',\n    message: question,",
  ),
  'src/flows/stage.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Ledger } from '../lib/ledger.js';
import { pickRegion } from '../lib/region.js';

export interface Staged {
  ready: boolean;
  text: string;
}

export async function stageBuild(server: McpServer, ledger: Ledger, region?: string): Promise<Staged> {
  try {
    const picked = await pickRegion(server, ledger, region);
    if (!picked.name) return { ready: false, text: picked.problem ?? 'no region' };
    await ledger.write(\`stage:\${picked.name}\`);
    return { ready: true, text: \`staged in \${picked.name}\` };
  } catch {
    return { ready: false, text: 'staging failed' };
  }
}
`,
  'src/tools/direct.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Ledger } from '../lib/ledger.js';
import { pickRegion } from '../lib/region.js';

export function registerDirectTools(server: McpServer, ledger: Ledger): void {
  server.registerTool('direct', { inputSchema: z.object({}) }, async () => {
    const picked = await pickRegion(server, ledger);
    return { content: [{ type: 'text', text: picked.name ?? 'none' }] };
  });
}
`,
};

/** A handler module that calls the helper through a function of its own. */
const LOCAL_WRAPPER = `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Ledger } from '../lib/ledger.js';
import { pickRegion } from '../lib/region.js';

async function regionOf(server: McpServer, ledger: Ledger): Promise<string> {
  const picked = await pickRegion(server, ledger);
  return picked.name ?? 'none';
}

export function registerLocalTools(server: McpServer, ledger: Ledger): void {
  server.registerTool('local', { inputSchema: z.object({}) }, async () => {
    const text = await regionOf(server, ledger);
    return { content: [{ type: 'text', text }] };
  });
}
`;
TRIED['src/tools/local.ts'] = LOCAL_WRAPPER;

const tried = migratedPair('deep-splits-tried-', TRIED);

describe('a function on the way that cannot be split', () => {
  it('keeps the helper whole, and the markers name that function, its line and why', async () => {
    expect(tried.result.errors).toEqual([]);
    expect(tried.result.sites.map((s) => [s.file, s.line, s.status, s.code])).toEqual([
      ['src/lib/region.ts', 13, 'marked', 'in-helper'],
      ['src/tools/deploy.ts', 8, 'marked', 'via-helper'],
      ['src/tools/direct.ts', 8, 'marked', 'via-helper'],
      ['src/tools/local.ts', 7, 'marked', 'via-helper'],
      ['src/tools/local.ts', 13, 'marked', 'via-helper'],
      ['src/tools/preview.ts', 8, 'marked', 'via-helper'],
      ['src/tools/release.ts', 8, 'marked', 'via-helper'],
    ]);
    const why = 'its try at line 11 holds more than `pickRegion()`';
    expect(await tried.read('migrated', 'src/lib/region.ts')).toBe(
      markedAbove(
        TRIED['src/lib/region.ts']!,
        'await server.server.elicitInput(',
        `// @mrtr-todo(in-helper): \`stageBuild()\` (stage.ts:12): ${why} — fix that`,
      ),
    );
    const wrapperMarker = `// @mrtr-todo(via-helper): \`stageBuild()\` (stage.ts:12): ${why} — fix that`;
    expect(await tried.read('migrated', 'src/tools/deploy.ts')).toBe(markedAbove(PROJECT['src/tools/deploy.ts']!, 'await stageBuild(', wrapperMarker));
    expect(await tried.read('migrated', 'src/tools/preview.ts')).toBe(markedAbove(PROJECT['src/tools/preview.ts']!, 'await stageBuild(', wrapperMarker));
    expect(await tried.read('migrated', 'src/tools/direct.ts')).toBe(
      markedAbove(TRIED['src/tools/direct.ts']!, 'await pickRegion(', `// @mrtr-todo(via-helper): \`stageBuild()\` (stage.ts:12): ${why} — fix that`),
    );
    const local = (await tried.read('migrated', 'src/tools/local.ts')).split('\n');
    expect([local[6], local[13]]).toEqual([
      `  // @mrtr-todo(via-helper): \`stageBuild()\` (stage.ts:12): ${why} — fix that`,
      '    // @mrtr-todo(via-helper): reaches `pickRegion()`, asking at line 8 — build inputRequired.elicit(...) in it, ask in the handler',
    ]);
    const helper = tried.result.sites.find((s) => s.file === 'src/lib/region.ts')!;
    expect(helper.reason).toBe(
      'this request is made in `pickRegion()`, which this module exports and could split for its callers, but `stageBuild()`, a function another module exports that calls it at src/flows/stage.ts:12 and is no handler, cannot be split to ask through its halves: it is a helper whose try at line 11 holds more than `pickRegion()`. So it stays whole.',
    );
  });
});

// The same server with the second module's function writing no return type: its halves name
// its value by what `stageBuildThen()` returns, in its own module; the handlers of the other
// modules ask through them without naming it.
const UNTYPED: Record<string, string> = {
  ...PROJECT,
  'src/flows/stage.ts': PROJECT['src/flows/stage.ts']!.replace('region?: string): Promise<Staged> {', 'region?: string) {'),
};

const untyped = migratedPair<ServerModule>('deep-splits-untyped-', UNTYPED);

describe('a function on the way that writes no return type', () => {
  it('is split all the same, its value named by the code after the call, and the server typechecks', async () => {
    expect(UNTYPED['src/flows/stage.ts']).not.toBe(PROJECT['src/flows/stage.ts']);
    expect(untyped.result.errors).toEqual([]);
    expect(untyped.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([['src/lib/region.ts', 'migrated', undefined]]);
    const stage = await untyped.read('migrated', 'src/flows/stage.ts');
    expect(stage).toContain('export async function stageBuildRequest(ledger: Ledger, region?: string) {');
    expect(stage).toContain(
      'export async function stageBuildResult(mrtrAnswer: ElicitResult, ledger: Ledger): Promise<Awaited<ReturnType<typeof stageBuildThen>>> {',
    );
    expect(stage).toContain('export async function stageBuildThen(picked: ReturnType<typeof pickRegionResult>, ledger: Ledger) {');
    for (const file of ['src/tools/deploy.ts', 'src/tools/preview.ts']) expect(await untyped.read('migrated', file), file).toBe(MIGRATED[file]);
    const files = Object.keys(UNTYPED).filter((f) => f.endsWith('.ts'));
    expect(await untyped.settled(files)).toEqual({ original: [], migrated: [], errors: [], changed: [] });
  });

  it('asks where it did and records each thing once, on both eras', async () => {
    const original = await run(await untyped.load('original'), 'legacy');
    const migrated = await untyped.load('migrated');
    for (const era of ['modern', 'legacy'] as const) expect({ era, ...(await run(migrated, era)) }).toEqual({ era, ...original });
  });
});
