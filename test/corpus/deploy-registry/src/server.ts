import { McpServer } from '@modelcontextprotocol/server';
import { registerAll } from './registry.js';
import { changelogTool } from './tools/changelog.js';
import { deployTool } from './tools/deploy.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'deploy', version: '0.9.1' });
  registerAll(server, [deployTool, changelogTool]);

  // Nightly digest: asks the client model for a summary of the day's deployments.
  setInterval(async () => {
    // corpus-site: mark no-request-to-answer
    const digest = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarise today.' } }],
      maxTokens: 100,
    });
    console.error(digest.content.type === 'text' ? digest.content.text : '');
  }, 24 * 60 * 60 * 1000).unref();

  return server;
}
