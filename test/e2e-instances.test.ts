// Several instances of a migrated server: separate processes sharing MCP_REQUEST_STATE_KEY, as a
// deployment behind a load balancer runs them, each reached by a real 2026-07-28 client over
// stdio in manual mode. A round answered on one instance and replayed on another runs its side
// effect once when they share a round store (mrtrRedisRounds, against a real Redis server);
// with the default, each process's memory, it runs again, which is why the summary and the
// module's header name the store wherever they name instances.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/fixtures.ts';
import { redisServerInstalled, startRedisServer, type RedisServer } from './support/redis-server.ts';

const SERVER = path.join(ROOT, 'test/support/instance-server.ts');
const CONFIRMED = { answer: { action: 'accept', content: { confirm: true } } };

let dir: string;
/** The Redis server's folder: in the system's temp folder, where a unix socket's path stays short. */
let redisDir: string;
let redis: RedisServer | undefined;
const installed = redisServerInstalled();
/** Where redis-server is not installed the Redis test is not run, except under CI (`.ci/run` installs it), where it must be. */
const REDIS_REQUIRED = Boolean(process.env.CI);
if (!installed && !REDIS_REQUIRED) {
  process.stderr.write(
    'test/e2e-instances.test.ts: the Redis round-store test was skipped: redis-server is not installed; to run it, install it (apt-get install redis-server) (with CI set it is required)\n',
  );
}

beforeAll(async () => {
  await mkdir(path.join(ROOT, '.tmp'), { recursive: true });
  dir = await mkdtemp(path.join(ROOT, '.tmp', 'instances-'));
  redisDir = await mkdtemp(path.join(os.tmpdir(), 'mrtr-redis-'));
  if (installed) redis = await startRedisServer(redisDir);
});
afterAll(async () => {
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(redisDir, { recursive: true, force: true });
});

type Instance = { call(params: Record<string, unknown>): Promise<Record<string, unknown>>; close(): Promise<void> };

/** Starts an instance process and connects a manual client to it. */
async function instance(name: string, env: Record<string, string>): Promise<Instance> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', SERVER],
    cwd: ROOT,
    stderr: 'ignore',
    env: { ...(process.env as Record<string, string>), ...env, MRTR_INSTANCE: name },
  });
  const client = new Client(
    { name: 'instances-probe', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(transport);
  return {
    async call(params) {
      try {
        return (await client.request({ method: 'tools/call', params }, { allowInputRequired: true })) as Record<string, unknown>;
      } catch (error) {
        if (error instanceof ProtocolError) return { error: { code: error.code, message: error.message } };
        throw error;
      }
    },
    close: () => client.close(),
  };
}

/** Asks on A, answers on A, replays the answered round on B; returns B's answer and the effect log. */
async function answerOnAReplayOnB(store: Record<string, string>) {
  const effectLog = path.join(dir, `effects-${randomBytes(4).toString('hex')}.log`);
  await writeFile(effectLog, '');
  const env = { MCP_REQUEST_STATE_KEY: randomBytes(32).toString('base64'), MRTR_EFFECT_LOG: effectLog, ...store };
  const [a, b] = await Promise.all([instance('A', env), instance('B', env)]);
  try {
    const call = { name: 'delete_records', arguments: { table: 'logs' } };
    const first = await a.call(call);
    expect(first).toMatchObject({ resultType: 'input_required', requestState: expect.stringMatching(/^mrtr-/) });
    const retry = { ...call, inputResponses: CONFIRMED, requestState: first.requestState };
    expect(await a.call(retry)).toMatchObject({ content: [{ type: 'text', text: 'Deleted 3 records from logs.' }] });
    const replayed = await b.call(retry);
    return { replayed, effects: (await readFile(effectLog, 'utf8')).split('\n').filter(Boolean) };
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

describe('two instances sharing MCP_REQUEST_STATE_KEY', () => {
  it.skipIf(!installed && !REDIS_REQUIRED)(
    'with a Redis round store (mrtrRedisRounds): a round answered on A and replayed on B is refused, and its effect runs once',
    async () => {
      expect(
        installed,
        "redis-server is not installed (CI is set, so this test is required): .ci/run installs Debian's redis-server (apt-get install redis-server)",
      ).toBe(true);
      const { replayed, effects } = await answerOnAReplayOnB({ MRTR_REDIS_SOCKET: redis!.socket });
      expect(replayed).toEqual({ error: { code: -32602, message: 'Invalid or expired requestState' } });
      expect(effects).toEqual(['A count:logs', 'A delete:logs=3']);
    },
  );

  it('with the default store (each process its memory): B replays the round and its effect runs again', async () => {
    const { replayed, effects } = await answerOnAReplayOnB({});
    expect(replayed).toMatchObject({ content: [{ type: 'text', text: 'Deleted 3 records from logs.' }] });
    expect(effects).toEqual(['A count:logs', 'A delete:logs=3', 'B delete:logs=3']);
  });
});
