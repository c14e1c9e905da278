// Migrated code compiles under the project's own compiler options, not only under strict: the
// request-state module the codemod writes, and each fixture's output, typecheck with
// strictNullChecks off and with the stricter options projects turn on; and a URL elicitation a
// handler threw, now returned, is admitted by the handler's return type.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CompilerOptions } from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';
import { fixtureCases, stateModulePath } from './support/fixtures.ts';
import { checkoutScratch, putFile } from './support/scratch.ts';
import { diagnosticsByFile } from './support/typecheck.ts';

const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
const cases = fixtureCases().filter((c) => /\.(m|c)?tsx?$/.test(c.inputPath));
const STATE_MODULE = stateModulePath('x.ts');

// The SDK's own Node adapter does not take node:http's request under exactOptionalPropertyTypes:
// @modelcontextprotocol/node 2.1.2 types NodeIncomingMessageLike's `method` as `method?: string`,
// and IncomingMessage's is `string | undefined`. The guard calls toWebRequest and the handler
// toNodeHandler made, as the SDK's guide does; each call is refused there, and only there.
const NODE_ADAPTER_REFUSES = `TS2379: Argument of type 'IncomingMessage' is not assignable to parameter of type 'NodeIncomingMessageLike' with 'exactOptionalPropertyTypes: true'. Consider adding 'undefined' to the types of the target's properties.   Types of property 'method' are incompatible.     Type 'string | undefined' is not assignable to type 'string'.       Type 'undefined' is not assignable to type 'string'.`;

describe.each<[string, CompilerOptions, Record<string, string[]>]>([
  ['strict off (no strictNullChecks)', { strict: false }, {}],
  [
    'strict with exactOptionalPropertyTypes',
    { strict: true, exactOptionalPropertyTypes: true },
    { 'http-entry-node-stateless': [NODE_ADAPTER_REFUSES, NODE_ADAPTER_REFUSES] },
  ],
  ['strict with noUncheckedIndexedAccess', { strict: true, noUncheckedIndexedAccess: true }, {}],
  ['strict with noPropertyAccessFromIndexSignature', { strict: true, noPropertyAccessFromIndexSignature: true }, {}],
  ['strict with verbatimModuleSyntax', { strict: true, verbatimModuleSyntax: true }, {}],
  // Each module resolution the SDK's packages declare their types for (exports, and main/types with typesVersions).
  ['module and moduleResolution node16', { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }, {}],
  ['moduleResolution bundler', { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }, {}],
  ['moduleResolution node10', { module: ts.ModuleKind.ES2022, moduleResolution: ts.ModuleResolutionKind.Node10 }, {}],
])('compiled with %s', (_name, options, known) => {
  let byFile: Map<string, string[]> | undefined;
  const diagnostics = () => (byFile ??= diagnosticsByFile([...cases.flatMap((c) => [c.inputPath, c.outputPath]), STATE_MODULE], options));

  it('the request-state module has no diagnostics', () => {
    expect(diagnostics().get(STATE_MODULE)).toEqual([]);
  });

  it('every fixture whose input compiles clean has an output that does', () => {
    // An input with diagnostics of its own is left out: without strictNullChecks the SDK types
    // the one parameter of a tool with no inputSchema as its arguments, not its context
    // (`undefined extends StandardSchemaWithJSON` holds), so a `(ctx)` written there fails in
    // the input as in the output. A context the codemod adds there is written `ctx: ServerContext`.
    const clean = cases.filter((c) => diagnostics().get(c.inputPath)!.length === 0);
    expect(clean.length).toBeGreaterThanOrEqual(10);
    expect(Object.fromEntries(clean.map((c) => [c.name, diagnostics().get(c.outputPath)]).filter(([, d]) => d!.length > 0))).toEqual(known);
  });
});

describe('a URL elicitation thrown by a handler with a Promise return type', () => {
  const dir = checkoutScratch('url-return-type-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const server = (handler: string) => `import { McpServer, UrlElicitationRequiredError, type CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  server.registerTool('confirm_payment', { inputSchema: z.object({ cartId: z.string() }) }, ${handler});
  return server;
}
`;
  const thrown = (indent: string, message: string) =>
    `${indent}throw new UrlElicitationRequiredError([{ mode: 'url', message: '${message}', url: \`https://pay.example/\${cartId}\`, elicitationId: cartId }]);`;

  it('returns the input requests, widens the return type to admit them, and typechecks', async () => {
    const source = server(`async ({ cartId }): Promise<CallToolResult> => {\n${thrown('    ', 'Confirm')}\n  }`);
    const { plan, output } = transformSource(source, 'shop.ts');
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain('async ({ cartId }): Promise<CallToolResult | InputRequiredResult> => {\n    return inputRequired({ inputRequests: {');
    expect(output).toMatch(/^import \{[^}]*\binputRequired,[^}]*\btype InputRequiredResult\b[^}]*\} from '@modelcontextprotocol\/server';/);
    const file = await putFile(dir, 'one/shop.ts', output);
    expect(diagnosticsByFile([file]).get(file)).toEqual([]);
    expect(transformSource(output, 'shop.ts').output).toBe(output);
  });

  it('widens it once for a throw in each branch of an if', async () => {
    const source = server(
      `async ({ cartId }): Promise<CallToolResult> => {\n    if (cartId === 'paid') {\n${thrown('      ', 'Receipt')}\n    } else {\n${thrown('      ', 'Pay')}\n    }\n  }`,
    );
    const { plan, output } = transformSource(source, 'shop.ts');
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated', 'migrated']);
    expect(output.match(/Promise<CallToolResult \| InputRequiredResult>/g)).toHaveLength(1);
    const file = await putFile(dir, 'two/shop.ts', output);
    expect(diagnosticsByFile([file]).get(file)).toEqual([]);
  });

  it("widens the handler's type in the project's own tool definer", async () => {
    const source = `import { UrlElicitationRequiredError, type CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

interface ToolDefinition {
  name: string;
  inputSchema: z.ZodObject<{ cartId: z.ZodString }>;
  handler: (args: { cartId: string }) => Promise<CallToolResult>;
}
export const tools: ToolDefinition[] = [];
function defineTool(definition: ToolDefinition): void {
  tools.push(definition);
}

defineTool({
  name: 'confirm_payment',
  inputSchema: z.object({ cartId: z.string() }),
  handler: async ({ cartId }) => {
${thrown('    ', 'Confirm')}
  },
});
`;
    const { plan, output } = transformSource(source, 'tools.ts');
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output).toContain('handler: (args: { cartId: string }) => Promise<CallToolResult | InputRequiredResult>;');
    const file = await putFile(dir, 'definer/tools.ts', output);
    expect(diagnosticsByFile([file]).get(file)).toEqual([]);
  });

  it('is refused when the return type is not a Promise it can widen', () => {
    const source = server(`({ cartId }): CallToolResult => {\n${thrown('    ', 'Confirm')}\n  }`);
    expect(transformSource(source, 'shop.ts').plan.sites.map((s) => [s.status, s.code])).toEqual([['marked', 'return-type']]);
  });
});
