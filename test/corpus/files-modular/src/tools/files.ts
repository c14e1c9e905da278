import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { moveFile, removeFile } from '../fs-ops.js';
import { TOOLS } from '../names.js';
import { askName, confirm, confirmDestructive } from '../prompt.js';

export function register(server: McpServer): void {
  server.registerTool(
    TOOLS.remove,
    { description: 'Remove a file', inputSchema: z.object({ path: z.string() }) },
    async ({ path }) => {
      if (!(await confirmDestructive(server, `remove ${path}`))) {
        return { content: [{ type: 'text', text: 'Cancelled.' }] };
      }
      await removeFile(path);
      return { content: [{ type: 'text', text: `Removed ${path}` }] };
    },
  );

  server.registerTool(
    TOOLS.move,
    { description: 'Move a file', inputSchema: z.object({ from: z.string(), to: z.string() }) },
    async ({ from, to }) => {
      const ok = await confirm(server, `Move ${from} to ${to}?`);
      if (!ok) return { content: [{ type: 'text', text: 'Cancelled.' }] };
      await moveFile(from, to);
      return { content: [{ type: 'text', text: `Moved ${from} -> ${to}` }] };
    },
  );

  server.registerTool(
    TOOLS.rename,
    { description: 'Rename a file, asking for the new name', inputSchema: z.object({ path: z.string() }) },
    async ({ path }) => {
      const name = await askName(server, path);
      if (!name) return { content: [{ type: 'text', text: 'Cancelled.' }] };
      await moveFile(path, name);
      return { content: [{ type: 'text', text: `Renamed to ${name}` }] };
    },
  );
}
