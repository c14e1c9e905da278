import * as z from 'zod/v4';
import { defineTool } from '../registry.js';

export const changelogTool = defineTool({
  name: 'write_changelog',
  description: 'Draft a changelog entry from commit subjects',
  inputSchema: z.object({ commits: z.array(z.string()) }),
  async handler({ commits }, ctx) {
    // corpus-site: migrate
    const draft = await ctx.mcpReq.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: `Write a changelog entry for:\n${commits.join('\n')}` } }],
      systemPrompt: 'You write terse changelogs.',
      maxTokens: 400,
    });
    const block = Array.isArray(draft.content) ? draft.content[0] : draft.content;
    const text = block?.type === 'text' ? block.text : '';
    return { content: [{ type: 'text', text }] };
  },
});
