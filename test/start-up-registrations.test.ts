// Registrations made where the server is built: those behind a client-capability read register
// for every client, those made in an initialize hook move to where the hook is set, and what
// the codemod cannot see into is marked (the fixtures show the main shapes; these, the edges).
import { describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';

const HEAD = "import { McpServer } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\n";
const TOOL = "server.registerTool('t', { description: 'd' }, async () => ({ content: [] }));";

function migrate(body: string, fileName = 'server.js'): string {
  const { output } = transformSource(HEAD + body, fileName);
  expect(transformSource(output, fileName).output, 'a second run changes nothing').toBe(output);
  // What follows the server's construction (the migration may add imports above it).
  return output.slice(output.indexOf('\n', output.indexOf('const server = new McpServer(')) + 1);
}

describe('a registration behind a client-capability read', () => {
  it('registers for every client when the read is made at registration time', () => {
    expect(migrate(`if (server.server.getClientCapabilities()?.sampling) {\n  ${TOOL}\n}\n`)).toBe(`${TOOL}\n`);
    expect(migrate(`if ('roots' in (server.server.getClientCapabilities() ?? {})) ${TOOL}\n`)).toBe(`${TOOL}\n`);
  });

  it('keeps a capability const something else still reads', () => {
    const body = `const caps = server.server.getClientCapabilities();\nif (caps?.elicitation) {\n  ${TOOL}\n}\nconsole.log(caps);\n`;
    expect(migrate(body)).toBe(`const caps = server.server.getClientCapabilities();\n${TOOL}\nconsole.log(caps);\n`);
  });

  it('marks a guard it cannot drop: an else branch, or a condition that tests more', () => {
    for (const guard of [
      `if (server.server.getClientCapabilities()?.elicitation) {\n  ${TOOL}\n} else {\n  ${TOOL}\n}\n`,
      `if (server.server.getClientCapabilities()?.elicitation && flag) {\n  ${TOOL}\n}\n`,
    ]) {
      const output = migrate(guard);
      // The marker quotes the start of the test: the guard is on the line below it.
      expect(output.slice(0, output.indexOf('\n'))).toBe(
        '// @mrtr-todo(registered-late): this registration tests `server.server.getClientCapabili…` before clients declare it — drop that test, check each request',
      );
      expect(output.slice(output.indexOf('\n') + 1)).toBe(guard);
    }
  });

  it('keeps and marks a guard on a capability the SDK does not gate (experimental), or one the revision removed (tasks)', () => {
    const ungated = (test: string) =>
      `// @mrtr-todo(registered-late): this registration tests \`${test}\` (experimental) before clients declare it — register always`;
    const removed = '// @mrtr-todo(registered-late): this registration tests `tasks`, removed in 2026 (SEP-2663) — remove the tool or use tasks extension';
    for (const [guard, marker] of [
      [`if ('experimental' in (server.server.getClientCapabilities() ?? {})) ${TOOL}\n`, ungated("'experimental' …")],
      [`if (server.server.getClientCapabilities()?.experimental?.x) {\n  ${TOOL}\n}\n`, ungated('server.server.g…')],
      [`if (server.server.getClientCapabilities()?.tasks) {\n  ${TOOL}\n}\n`, removed],
      [`if (server.server.getClientCapabilities()?.elicitation && server.server.getClientCapabilities()?.tasks) {\n  ${TOOL}\n}\n`, removed],
    ] as const) {
      const output = migrate(guard);
      expect(output.slice(0, output.indexOf('\n'))).toBe(marker);
      expect(output.slice(output.indexOf('\n') + 1)).toBe(guard);
    }
    const viaConst = `const caps = server.server.getClientCapabilities();\nconst tasks = caps?.tasks;\nif (tasks) {\n  ${TOOL}\n}\n`;
    const output = migrate(viaConst);
    expect(output).toMatch(
      /^const caps = [^\n]*\nconst tasks = [^\n]*\n\/\/ @mrtr-todo\(registered-late\): this registration tests `tasks`, removed in 2026 \(SEP-2663\) — remove the tool or use tasks extension\n/,
    );
    expect(output.replace(/^\/\/ @mrtr-todo.*\n/m, '')).toBe(viaConst);
  });

  it('drops only a guard at registration time: not one read inside a handler, nor one around other work', () => {
    const inHandler = `server.registerTool('h', { description: 'd' }, async (args, ctx) => {\n  if (server.server.getClientCapabilities()?.sampling) {\n    ${TOOL}\n  }\n  return { content: [] };\n});\n`;
    const otherWork = `if (server.server.getClientCapabilities()?.roots) {\n  console.log('roots');\n}\n`;
    const output = migrate(`if (server.server.getClientCapabilities()?.sampling) {\n  ${TOOL}\n}\n${inHandler}${otherWork}`);
    expect(output.startsWith(`${TOOL}\nserver.registerTool('h'`)).toBe(true);
    // The handler's own read now prefers the capabilities its request carries (client-capabilities.ts).
    expect(output).toContain(`?? server.server.getClientCapabilities())?.sampling) {\n    ${TOOL}\n  }\n`);
    expect(output.endsWith(otherWork)).toBe(true);
  });
});

describe('a registration in an initialize hook', () => {
  it('moves an asking tool to where the hook is set, migrated, without the late-registration marker', () => {
    const body = `server.server.oninitialized = () => {\n  server.registerTool('t', { description: 'd' }, async (ctx) => {\n    const a = await ctx.mcpReq.elicitInput(p);\n    return a;\n  });\n};\n`;
    const output = migrate(body);
    expect(output).toMatch(/^server\.registerTool\('t', \{ description: 'd' \}, async \(ctx\) => \{\n {2}const mrtr = await mrtrResume/);
    expect(output).not.toContain('oninitialized');
    expect(output).not.toContain('@mrtr-todo');
  });

  it('moves the call of an arrow hook, and from a notifications/initialized handler', () => {
    expect(
      migrate(
        `function registerAll(s) {\n  s.registerTool('t', {}, async () => ({ content: [] }));\n}\nserver.server.oninitialized = () => registerAll(server);\n`,
      ),
    ).toMatch(/\n}\nregisterAll\(server\);\n$/);
    const notified = `server.server.setNotificationHandler('notifications/initialized', async () => {\n  ${TOOL}\n  await server.sendLoggingMessage({ level: 'info', data: 'ready' });\n});\n`;
    expect(migrate(notified)).toBe(
      `${TOOL}\n\nserver.server.setNotificationHandler('notifications/initialized', async () => {\n  await server.sendLoggingMessage({ level: 'info', data: 'ready' });\n});\n`,
    );
  });

  it('marks a call into another module that it hands the server, and leaves what needs the session', () => {
    const body = `server.server.oninitialized = async () => {\n  registerConditionalTools(server);\n  const sessionId = server.server.transport?.sessionId;\n  setTimeout(() => syncRoots(server, sessionId), 350);\n};\n`;
    const output = migrate(`import { registerConditionalTools } from './tools.js';\n${body}`);
    expect(output).toContain(
      '  // @mrtr-todo(registered-late): `registerConditionalTools()` runs in an init hook that 2026 clients skip — call it at start-up unless it needs a session\n  registerConditionalTools(server);\n  const sessionId',
    );
  });

  it('marks, rather than moves, a registration whose handler reads capabilities read when it registers', () => {
    const register = `function registerRoots(s) {\n  const caps = s.server.getClientCapabilities() || {};\n  const canList = caps.roots !== undefined;\n  if (canList) {\n    s.registerTool('roots', {}, async () => ({ content: [{ type: 'text', text: String(canList) }] }));\n  }\n}\n`;
    const output = migrate(`${register}server.server.oninitialized = () => {\n  registerRoots(server);\n};\n`);
    // The guard goes; the const the handler reads stays, and so does the call, marked.
    expect(output).toContain("  const canList = caps.roots !== undefined;\n  s.registerTool('roots'");
    expect(output).toMatch(
      /oninitialized = \(\) => \{\n {2}\/\/ @mrtr-todo\(registered-late\): `registerRoots\(\)` runs in an init hook[^\n]*\n {2}registerRoots\(server\);\n\};\n$/,
    );
  });

  it('moves the capability consts a handler with a context reads into it, and then the call out of the hook', () => {
    const register = `function registerRoots(s) {\n  // Does the client list roots?\n  const caps = s.server.getClientCapabilities() || {};\n  const canList = caps.roots !== undefined;\n\n  if (canList) {\n    s.registerTool('roots', {}, async (ctx) => {\n      return { content: [{ type: 'text', text: String(canList) }] };\n    });\n  }\n}\n`;
    const output = migrate(`${register}server.server.oninitialized = () => {\n  registerRoots(server);\n};\n`, 'server.ts');
    // Read again on each call, and from the capabilities the request carries (client-capabilities.ts).
    expect(output).toBe(
      "function registerRoots(s) {\n  s.registerTool('roots', {}, async (ctx) => {\n    // Does the client list roots?\n" +
        '    const caps = ((ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: ClientCapabilities } | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? s.server.getClientCapabilities()) || {};\n' +
        '    const canList = caps.roots !== undefined;\n\n' +
        "    return { content: [{ type: 'text', text: String(canList) }] };\n  });\n}\nregisterRoots(server);\n",
    );
  });

  it('moves a registration behind a removed capability out of the hook, marked', () => {
    const output = migrate(`server.server.oninitialized = () => {\n  if (server.server.getClientCapabilities()?.tasks) {\n    ${TOOL}\n  }\n};\n`);
    expect(output.slice(0, output.indexOf('\n'))).toBe(
      '// @mrtr-todo(registered-late): this registration tests `tasks`, removed in 2026 (SEP-2663) — remove the tool or use tasks extension',
    );
    expect(output.slice(output.indexOf('\n') + 1)).toBe(`if (server.server.getClientCapabilities()?.tasks) {\n  ${TOOL}\n}\n`);
  });

  it('moves a guarded registration with its guard dropped, and keeps one that reads what the hook holds', () => {
    const guarded = `server.server.oninitialized = () => {\n  const caps = server.server.getClientCapabilities() || {};\n  if (caps.elicitation !== undefined) {\n    ${TOOL}\n  }\n  console.log('initialized');\n};\n`;
    expect(migrate(guarded)).toBe(`${TOOL}\n\nserver.server.oninitialized = () => {\n  console.log('initialized');\n};\n`);
    const reads = `server.server.oninitialized = () => {\n  const name = server.server.getClientVersion()?.name;\n  server.registerTool(name, {}, async () => ({ content: [] }));\n};\n`;
    expect(migrate(reads)).toBe(reads);
  });
});
