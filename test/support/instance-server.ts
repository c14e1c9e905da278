// One instance of a migrated server, as a deployment runs several: the migrated
// elicit-confirm-delete fixture served over stdio by its own process. Every effect is appended
// to the log all instances share (MRTR_EFFECT_LOG, each line led by MRTR_INSTANCE); resumed
// rounds are recorded in the Redis at MRTR_REDIS_SOCKET when it is set, through the module's
// mrtrRedisRounds, and in this process's memory (the module's default) otherwise.
import { appendFileSync } from 'node:fs';
import { createClient } from '@redis/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { mrtrConfigure, mrtrRedisRounds } from '../../fixtures/_support/mrtr-request-state.ts';
import type { World } from '../../fixtures/_support/world.ts';
import { createServer } from '../../fixtures/elicit-confirm-delete/output.ts';

const instance = process.env.MRTR_INSTANCE ?? '?';
const effectLog = process.env.MRTR_EFFECT_LOG!;
const rows: Record<string, number> = { logs: 3 };
const effect = (entry: string) => appendFileSync(effectLog, `${instance} ${entry}\n`);
const world: World = {
  log: [],
  count(table) {
    effect(`count:${table}`);
    return rows[table] ?? 0;
  },
  delete(table) {
    effect(`delete:${table}=${rows[table] ?? 0}`);
    rows[table] = 0;
  },
  audit: (entry) => effect(`audit:${entry}`),
};

const socket = process.env.MRTR_REDIS_SOCKET;
if (socket) {
  const redis = createClient({ socket: { path: socket, tls: false } });
  await redis.connect();
  // The connection does not keep the process alive: it ends when its client goes.
  redis.unref();
  mrtrConfigure({ rounds: mrtrRedisRounds(redis) });
}
serveStdio(() => createServer(world));
