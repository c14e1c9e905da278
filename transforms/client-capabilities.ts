/**
 * jscodeshift transform: makes `server.getClientCapabilities()` checks inside MCP handlers
 * read the capabilities a 2026-07-28 request carries (`ctx.mcpReq.envelope`), falling back to
 * the connection's on the 2025 era. mrtr-handlers.ts runs this too, after its own rewrite;
 * this file applies only this concern:
 *
 *   npx jscodeshift -t node_modules/mrtr-codemod/dist/transforms/client-capabilities.js --parser=tsx src/
 */
import type { FileInfo } from 'jscodeshift';
import { rewriteCapabilityChecks } from '../src/rewrite/client-capabilities.ts';

export const parser = 'tsx';

export default function transformer(file: FileInfo): string | undefined {
  const { output } = rewriteCapabilityChecks(file.source, file.path);
  return output === file.source ? undefined : output;
}
