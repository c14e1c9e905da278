// A real client driving a server process over stdio, on either era: the process is spawned the
// way an MCP host spawns it, and what it wrote to stderr is its log.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/**
 * Calls the `go` tool of a server process (a TypeScript one run through tsx), accepting its
 * question; `questions` are the messages the client was asked, its log what it wrote to stderr.
 */
export async function callOverStdio(script: string, era: 'modern' | 'legacy'): Promise<{ results: unknown[]; questions: string[]; log: string[] }> {
  const client = new Client(
    { name: 'cjs-probe', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}) },
  );
  const questions: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    questions.push(request.params.message);
    return { action: 'accept', content: { ok: true } };
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: script.endsWith('.ts') ? ['--import', 'tsx', script] : [script],
    cwd: path.dirname(script),
    stderr: 'pipe',
    env: { ...process.env } as Record<string, string>,
  });
  let stderr = '';
  const ended = new Promise<void>((resolve) => {
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    transport.stderr?.on('end', () => resolve());
  });
  await client.connect(transport);
  let results: unknown[];
  try {
    const result = (await client.callTool({ name: 'go', arguments: {} })) as { content: unknown };
    results = [{ content: result.content, era: client.getProtocolEra() }];
  } finally {
    await client.close();
  }
  // Everything the server process wrote, once it has exited.
  await ended;
  return { results, questions, log: [...stderr.matchAll(/^LOG (.*)$/gm)].map((m) => m[1]!) };
}
