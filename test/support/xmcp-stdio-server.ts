// An xmcp stdio server process serving one file-based tool: what `xmcp build` makes, without
// the build. The framework's compiled stdio runtime reads the tools, prompts, resources and
// server info its bundler defines as globals; they are defined here, and the runtime loaded.
// XMCP_TOOL names the tool module (a TypeScript one: the process runs under tsx).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const tool = process.env.XMCP_TOOL;
if (!tool) throw new Error('XMCP_TOOL names no tool module');
Object.assign(globalThis, {
  INJECTED_TOOLS: { [path.basename(tool)]: () => import(pathToFileURL(tool).href) },
  INJECTED_PROMPTS: {},
  INJECTED_RESOURCES: {},
  INJECTED_CLIENT_BUNDLES: null,
  IS_CLOUDFLARE: false,
  SERVER_INFO: { name: 'xmcp-e2e', version: '1.0.0' },
  // stdout is the wire: the runtime's own logs go to stderr.
  STDIO_CONFIG: { silent: true, debug: false },
});
const require = createRequire(import.meta.url);
require(path.join(path.dirname(require.resolve('xmcp/package.json')), 'dist/runtime/stdio.js'));
