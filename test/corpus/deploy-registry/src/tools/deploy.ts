import * as z from 'zod/v4';
import { currentVersion, deploy } from '../environments.js';
import { defineTool } from '../registry.js';

export const deployTool = defineTool({
  name: 'deploy',
  description: 'Deploy a version to an environment',
  inputSchema: z.object({ env: z.enum(['staging', 'production']), version: z.string() }),
  handler: async ({ env, version }, ctx) => {
    const running = currentVersion(env);
    if (env === 'production') {
      // corpus-site: migrate
      const answer = await ctx.mcpReq.elicitInput({
        message: `Replace ${running} with ${version} in production?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        return { content: [{ type: 'text', text: 'Deployment cancelled.' }] };
      }
    }
    deploy(env, version);
    return { content: [{ type: 'text', text: `Deployed ${version} to ${env} (was ${running}).` }] };
  },
});
