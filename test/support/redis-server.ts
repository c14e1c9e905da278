// A real Redis server for a test, on a unix socket in a folder of the test's own (no TCP port):
// Debian's redis-server, which .ci/run installs. Where it is not installed the test that needs
// it is skipped, except under CI, where it must run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface RedisServer {
  socket: string;
  stop(): Promise<void>;
}

/** Whether redis-server can be run here. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Starts redis-server with its socket in `dir` (nothing saved to disk); resolves once it accepts connections. */
export async function startRedisServer(dir: string): Promise<RedisServer> {
  const socket = path.join(dir, 'redis.sock');
  const child = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!/ready to accept connections/i.test(output) || !existsSync(socket)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    socket,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
