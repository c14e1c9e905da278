// End to end through the real SDK: each legacy fixture server, run on the 2025 era through a
// real @modelcontextprotocol/client, against its migrated output run on the 2026-07-28 era
// and on the 2025 era (the SDK's legacy shim). Same results, same questions, same side
// effects, in the same order: a rewrite that re-ran code before a question would change
// the world's log even where the results agree.
import { ProtocolError, type ElicitRequestURLParams } from '@modelcontextprotocol/client';
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../fixtures/_support/world.ts';
import { importFixture } from './support/fixtures.ts';
import { link, normaliseQuestion, runCalls, stripMeta, type ClientScript, type Era, type Question, type ToolCall } from './support/harness.ts';

type ServerModule = { createServer(world: World): McpServer };

interface Scenario {
  fixture: string;
  calls: ToolCall[];
  script: ClientScript;
  /** The log the legacy server produces: pinned so the comparison cannot pass vacuously. */
  legacyLog: string[];
  /** The one tool error the legacy server answers with, a throw of the handler's own (no other is expected). */
  toolError?: string;
}

const accept = (content: Record<string, unknown>) => ({ action: 'accept' as const, content });

const scenarios: Record<string, Scenario> = {
  'confirm then delete (accepted)': {
    fixture: 'elicit-confirm-delete',
    calls: [{ name: 'delete_records', arguments: { table: 'logs' } }],
    script: { elicit: () => accept({ confirm: true }) },
    legacyLog: ['count:logs', 'delete:logs=3'],
  },
  'confirm then delete (declined)': {
    fixture: 'elicit-confirm-delete',
    calls: [{ name: 'delete_records', arguments: { table: 'users' } }],
    script: { elicit: () => ({ action: 'decline' }) },
    legacyLog: ['count:users'],
  },
  'sampling tool': {
    fixture: 'sampling-summarise',
    calls: [{ name: 'summarise', arguments: { text: 'a long text about tides and moons' } }],
    script: {
      sample: (params) => ({
        role: 'assistant',
        model: 'scripted',
        content: { type: 'text', text: `summary of ${JSON.stringify(params).length} chars` },
      }),
    },
    legacyLog: ['audit:summarise:33', 'audit:summary:20'],
  },
  'two questions with a local between them': {
    fixture: 'two-questions',
    calls: [{ name: 'register_user', arguments: {} }],
    script: {
      elicit: (params) => (String(params.message).includes('name') ? accept({ name: 'ada' }) : accept({ age: 36 })),
    },
    legacyLog: ['audit:register:start', 'count:users', 'audit:register:ADA-5/36'],
  },
  'roots and a discarded answer': {
    fixture: 'request-forms',
    calls: [
      { name: 'list_workspace', arguments: {} },
      { name: 'notify_user', arguments: { note: 'build finished' } },
    ],
    script: { roots: [{ uri: 'file:///work/a', name: 'a' }, { uri: 'file:///work/b' }], elicit: () => ({ action: 'cancel' }) },
    legacyLog: ['audit:roots:asked', 'audit:notify:build finished', 'audit:notify:done'],
  },
  'answers named __proto__ and constructor': {
    fixture: 'odd-answer-names',
    calls: [{ name: 'rename_table', arguments: { table: 'logs' } }],
    script: { elicit: (params) => (String(params.message).startsWith('New name') ? accept({ name: 'archive' }) : accept({ ok: true })) },
    legacyLog: ['audit:rename:logs:archive'],
  },
  'Promise.all as one round with two keys': {
    fixture: 'promise-all-and-patterns',
    calls: [{ name: 'plan_trip', arguments: { city: 'Lisbon' } }],
    script: { elicit: (params) => (String(params.message).startsWith('When') ? accept({ when: 'May' }) : accept({ amount: 900 })) },
    legacyLog: ['audit:trip:Lisbon', 'audit:trip:Lisbon:May:900'],
  },
  'a destructured answer living across a second question': {
    fixture: 'promise-all-and-patterns',
    calls: [{ name: 'pick_root', arguments: {} }],
    script: { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }], elicit: () => accept({ index: 1 }) },
    legacyLog: ['audit:roots:2'],
  },
  'a question in one if branch, the other branch without one': {
    fixture: 'control-flow',
    calls: [
      { name: 'archive_table', arguments: { table: 'logs', force: false } },
      { name: 'archive_table', arguments: { table: 'users', force: true } },
    ],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['count:logs', 'audit:confirmed:logs', 'delete:logs=3', 'count:users', 'audit:forced:users', 'delete:users=5'],
  },
  'a declined question in an if branch returns early': {
    fixture: 'control-flow',
    calls: [{ name: 'archive_table', arguments: { table: 'logs', force: false } }],
    script: { elicit: () => ({ action: 'decline' }) },
    legacyLog: ['count:logs'],
  },
  'try/catch/finally around a question: the finally runs once': {
    fixture: 'control-flow',
    calls: [{ name: 'rename_project', arguments: { project: 'apollo' } }],
    script: { elicit: () => accept({ name: 'artemis' }) },
    legacyLog: ['audit:rename:apollo', 'audit:rename:finally', 'audit:rename:apollo->artemis'],
  },
  'a question awaited inside a condition': {
    fixture: 'control-flow',
    calls: [{ name: 'wipe_cache', arguments: {} }],
    script: { elicit: () => accept({}) },
    legacyLog: ['delete:cache=0'],
  },
  'a low-level tools/call handler dispatching in a switch': {
    fixture: 'low-level-and-prompt',
    calls: [
      { name: 'purge', arguments: { table: 'logs' } },
      { name: 'echo', arguments: { table: 'users' } },
    ],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['count:logs', 'delete:logs=3'],
  },
  'a prompt that asks': {
    fixture: 'low-level-and-prompt',
    calls: [{ kind: 'prompt', name: 'release_notes', arguments: { version: '2.0' } }],
    script: { elicit: () => accept({ audience: 'operators' }) },
    legacyLog: ['audit:prompt:2.0'],
  },
  'a helper that asks, used by two tools': {
    fixture: 'helper-split',
    calls: [
      { name: 'drop_table', arguments: { table: 'logs' } },
      { name: 'truncate_table', arguments: { table: 'users' } },
    ],
    script: { elicit: (params) => (String(params.message).startsWith('Drop') ? accept({ ok: true }) : accept({ ok: false })) },
    legacyLog: ['count:logs', 'delete:logs=3', 'audit:truncate:users:false'],
  },
  'handlers that are not async, handing back a helper promise': {
    fixture: 'delegating-handlers',
    calls: [
      { name: 'drop_table', arguments: { table: 'logs' } },
      { name: 'drop_scratch', arguments: { table: 'users' } },
      { name: 'drop_all', arguments: { prefix: 'tmp' } },
    ],
    script: { elicit: (params) => (String(params.message).startsWith('Drop scratch') ? { action: 'decline' } : accept({ ok: true })) },
    legacyLog: ['delete:logs=3', 'audit:scratch:users', 'audit:drop-all:tmp'],
  },
  'handlers whose body is one expression, given a block': {
    fixture: 'expression-bodied-handlers',
    calls: [
      { name: 'drop_table', arguments: { table: 'logs' } },
      { name: 'drop_all', arguments: { prefix: 'tmp' } },
      { name: 'drop_view', arguments: { view: 'users' } },
    ],
    script: { elicit: (params) => (String(params.message).startsWith('Drop view_') ? { action: 'decline' } : accept({ ok: true })) },
    legacyLog: ['delete:logs=3', 'audit:drop-all:tmp'],
  },
  'a function with no written return type, going on after a helper that may ask': {
    fixture: 'maybe-ask-unwritten-type',
    calls: [
      { name: 'launch', arguments: { bay: 'b2' } },
      { name: 'launch', arguments: {} },
    ],
    script: { elicit: () => accept({ bay: 'b7' }) },
    legacyLog: ['audit:launch:b2', 'audit:launched', 'audit:launch:b7', 'audit:launched'],
  },
  'a chain of two helpers, both split': {
    fixture: 'helper-chain-split',
    calls: [
      { name: 'drop_table', arguments: { table: 'logs' } },
      { name: 'truncate_table', arguments: { table: 'users' } },
    ],
    script: { elicit: (params) => (String(params.message).startsWith('Delete') ? accept({ ok: true }) : accept({ ok: false })) },
    legacyLog: ['count:logs', 'delete:logs=3', 'audit:truncate:users:false'],
  },
  'a server held by a class, and a class that wraps the question': {
    fixture: 'class-held-server',
    calls: [
      { name: 'delete_records', arguments: { table: 'logs' } },
      { name: 'archive_table', arguments: { table: 'users' } },
    ],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['count:logs', 'delete:logs=3', 'audit:archive:asked:users', 'audit:archive:done:users'],
  },
  'handlers and a helper method written with a `this` parameter': {
    fixture: 'this-parameter-handlers',
    calls: [
      { name: 'purge_folder', arguments: { folder: 'logs' } },
      { name: 'archive_note', arguments: { id: 'n1' } },
      { name: 'pin_note', arguments: { id: 'n2' } },
    ],
    script: { elicit: (params) => (String(params.message).startsWith('Pin') ? { action: 'decline' } : accept({ ok: true })) },
    legacyLog: ['count:logs', 'delete:logs=3', 'audit:archive:n1', 'audit:pin:asked:n2', 'audit:pin:n2:decline'],
  },
  'a low-level handler delegating each case to a method that asks': {
    fixture: 'low-level-delegates',
    calls: [
      { name: 'purge', arguments: { table: 'logs' } },
      { name: 'summarise', arguments: { text: 'tides' } },
    ],
    script: {
      elicit: () => accept({ ok: true }),
      sample: () => ({ role: 'assistant', model: 'scripted', content: { type: 'text', text: 'short' } }),
    },
    legacyLog: ['count:logs', 'delete:logs=3', 'audit:summarise:5'],
  },
  "a project's own tool definitions, named by a const object": {
    fixture: 'tool-definitions',
    calls: [
      { name: 'wipe_table', arguments: { table: 'logs' } },
      { name: 'tag_table', arguments: { table: 'users' } },
    ],
    script: { elicit: (params) => (String(params.message).startsWith('Wipe') ? accept({ ok: true }) : accept({ tag: 'hot' })) },
    legacyLog: ['count:logs', 'delete:logs=3', 'audit:tag:users:hot'],
  },
  "handlers a project's registry gets from its declarations' factories": {
    fixture: 'registry-factories',
    calls: [
      { name: 'list_tables', arguments: {} },
      { name: 'drop_table', arguments: { table: 'logs' } },
    ],
    script: { roots: [{ uri: 'file:///data/a' }, { uri: 'file:///data/b' }], elicit: () => accept({ ok: true }) },
    legacyLog: ['audit:list:start', 'audit:list:2', 'count:logs', 'delete:logs=3'],
  },
  'tools written as classes, whose instances a loop registers': {
    fixture: 'registry-classes',
    calls: [
      { name: 'archive_table', arguments: { table: 'users' } },
      { name: 'ping', arguments: {} },
      { name: 'vacuum', arguments: {} },
      { name: 'reindex', arguments: {} },
    ],
    script: {
      elicit: () => accept({ ok: true }),
      sample: () => ({ role: 'assistant', model: 'scripted', content: { type: 'text', text: 'pong' } }),
    },
    legacyLog: ['count:users', 'delete:users=5', 'audit:ping', 'audit:vacuum:accept', 'audit:reindex:accept'],
  },
  "a confirmation gate in a base class's invoke, which every subclass tool runs": {
    fixture: 'base-class-gate',
    calls: [
      { name: 'drop_table', arguments: { table: 'logs' } },
      { name: 'truncate_table', arguments: { table: 'users' } },
      { name: 'count_rows', arguments: { table: 'users' } },
    ],
    script: { elicit: (params) => (String(params.message).includes('drop_table') ? accept({ ok: true }) : { action: 'decline' }) },
    legacyLog: ['audit:invoke:drop_table', 'count:logs', 'delete:logs=3', 'audit:invoke:truncate_table', 'audit:invoke:count_rows', 'count:users'],
  },
  'a confirmation through a service whose finally block stops the heartbeat it started, from a base class gate (confirmed)': {
    fixture: 'maybe-ask-release',
    calls: [
      { name: 'purge', arguments: { table: 'logs' } },
      { name: 'count', arguments: { table: 'users' } },
    ],
    script: { elicit: () => accept({ confirmation: 'Yes' }) },
    legacyLog: ['audit:heartbeat:start:Run purge?', 'audit:heartbeat:stop:Run purge?', 'delete:logs=3', 'count:users'],
  },
  'a confirmation through a service whose finally block stops the heartbeat it started, from a base class gate (declined)': {
    fixture: 'maybe-ask-release',
    calls: [{ name: 'purge', arguments: { table: 'logs' } }],
    script: { elicit: () => accept({ confirmation: 'No' }) },
    legacyLog: ['audit:heartbeat:start:Run purge?', 'audit:heartbeat:stop:Run purge?'],
  },
  'a helper that leaves when a store has no entry, then may ask: its result half keeps the guard': {
    fixture: 'maybe-ask-guard-narrowing',
    calls: [
      { name: 'seats', arguments: { table: 'logs' } },
      { name: 'seats', arguments: { table: 'users' } },
    ],
    script: { elicit: () => accept({ seats: 3 }) },
    legacyLog: ['audit:ask:logs', 'count:logs', 'count:users'],
  },
  'command objects one handler dispatches to, one asking twice through a helper in a field': {
    fixture: 'command-dispatch',
    calls: [
      { name: 'provision', arguments: {} },
      { name: 'status', arguments: { machine: 'm1' } },
    ],
    script: { elicit: (params) => (params.message === 'Which plan?' ? accept({ plan: 'large' }) : accept({ region: 'eu', owner: 'ada' })) },
    legacyLog: ['audit:provision:large:eu:ada', 'audit:status:m1'],
  },
  'command objects one handler dispatches to, answered in part or wholly by the arguments': {
    fixture: 'command-dispatch',
    calls: [
      { name: 'provision', arguments: { plan: 'small' } },
      { name: 'provision', arguments: { plan: 'large', region: 'us', owner: 'bo' } },
      { name: 'status', arguments: { machine: 'm2' } },
    ],
    script: { elicit: () => accept({ region: 'ap', owner: 'cy' }) },
    legacyLog: ['audit:provision:small:ap:cy', 'audit:provision:large:us:bo', 'audit:status:m2'],
  },
  'a bound method through optional chains, request() by method, a destructured context': {
    fixture: 'receiver-provenance',
    calls: [
      { name: 'rename', arguments: { from: 'a' } },
      { name: 'vote', arguments: { item: 'b' } },
      { name: 'tag', arguments: { item: 'c' } },
    ],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['audit:rename:a:accept', 'audit:vote:asked:b', 'audit:vote:b:accept', 'audit:tag:c:accept'],
  },
  'a helper that samples': {
    fixture: 'helper-split',
    calls: [{ name: 'digest', arguments: { text: 'tides' } }],
    script: { sample: () => ({ role: 'assistant', model: 'scripted', content: { type: 'text', text: 'short' } }) },
    legacyLog: [],
  },
  'a JavaScript server': {
    fixture: 'javascript-server',
    calls: [{ name: 'delete_records', arguments: { table: 'logs' } }],
    script: { elicit: () => accept({ confirm: true }) },
    legacyLog: ['count:logs', 'delete:logs=3'],
  },
  'JavaScript locals shown plain JSON by their code': {
    fixture: 'javascript-unknown-locals',
    calls: [{ name: 'archive', arguments: { table: 'logs', days: 45 } }],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['audit:archive:LOGS-45:45:true'],
  },
  'what the code after the question needs of a collection, carried instead of it': {
    fixture: 'unbounded-locals',
    calls: [{ name: 'count_rows', arguments: { table: 'logs' } }],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['audit:load:logs', 'count:logs', 'audit:report:logs:3:logs-2'],
  },
  'locals that look like secrets, migrated and marked, and the same made again instead': {
    fixture: 'secrets-by-value',
    calls: [
      { name: 'export_table', arguments: { table: 'logs' } },
      { name: 'export_view', arguments: { view: 'recent' } },
    ],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: [
      'count:logs',
      `audit:export:logs:56:${(process.env.EXPORT_SIGNING ?? 'dev').length}:2`,
      `audit:export:recent:49:${(process.env.EXPORT_SIGNING ?? 'dev').length}`,
    ],
  },
  'a private low-level Server, a bound alias and a destructured send': {
    fixture: 'receiver-spellings',
    calls: [
      { name: 'archive', arguments: { table: 'logs' } },
      { name: 'rename', arguments: { from: 'old' } },
      { name: 'tag', arguments: { item: 'x' } },
    ],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['audit:archive:logs', 'audit:rename:old:accept', 'audit:tag:x:accept'],
  },
  'a request context kept in a local, destructured, or its method named in brackets': {
    fixture: 'aliased-and-computed-receivers',
    calls: [
      { name: 'archive', arguments: { table: 'logs' } },
      { name: 'purge', arguments: { table: 'users' } },
      { name: 'tag', arguments: { item: 'x' } },
      { name: 'title', arguments: { text: 'tides and moons' } },
    ],
    script: {
      elicit: () => accept({ ok: true }),
      sample: () => ({ role: 'assistant', model: 'scripted', content: { type: 'text', text: 'On tides' } }),
    },
    legacyLog: ['count:logs', 'audit:archive:logs:accept', 'delete:users=5', 'audit:tag:x:accept', 'audit:title:On tides'],
  },
  'a handler passed by name': {
    fixture: 'handler-by-name',
    calls: [{ name: 'purge', arguments: { table: 'users' } }],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['count:users', 'delete:users=5'],
  },
  "a question awaited as a call's argument": {
    fixture: 'answer-as-argument',
    calls: [
      { name: 'show_roots', arguments: {} },
      { name: 'record_choice', arguments: { table: 'logs' } },
    ],
    script: { roots: [{ uri: 'file:///work/a', name: 'a' }], elicit: () => accept({}) },
    legacyLog: ['audit:roots:asked', 'count:logs', 'audit:accept:3'],
  },
  'a context under a type assertion, and methods named by templates': {
    fixture: 'cast-and-template-spellings',
    calls: [
      { name: 'purge_table', arguments: { table: 'logs' } },
      { name: 'tag_table', arguments: { table: 'users' } },
      { name: 'confirm_export', arguments: { table: 'logs' } },
      { name: 'notify_owner', arguments: { table: 'users' } },
    ],
    script: { elicit: (params) => (String(params.message).startsWith('Tag') ? accept({ tag: 'hot' }) : accept({ ok: true })) },
    legacyLog: ['count:logs', 'delete:logs=3', 'audit:tag:users:hot', 'audit:export:logs', 'audit:export:logs:accept', 'audit:notify:users:accept'],
  },
  'a capability check before the question': {
    fixture: 'capability-checks',
    calls: [{ name: 'careful_delete', arguments: { table: 'logs' } }],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['delete:logs=3'],
  },
  'a capability check in the prefix of a helper that may answer without asking (accepted)': {
    fixture: 'maybe-ask-capability-guard',
    calls: [{ name: 'truncate_table', arguments: { table: 'logs' } }],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['delete:logs=3'],
  },
  'a capability check in the prefix of a helper that may answer without asking (declined)': {
    fixture: 'maybe-ask-capability-guard',
    calls: [{ name: 'truncate_table', arguments: { table: 'logs' } }],
    script: { elicit: () => ({ action: 'decline' }) },
    legacyLog: [],
  },
  'a helper asking inside a try, behind a capability check': {
    fixture: 'maybe-ask-try',
    calls: [
      { name: 'lint_checkout', arguments: {} },
      { name: 'lint_checkout', arguments: { root: '/srv/lib' } },
    ],
    script: { roots: [{ uri: 'file:///srv/app' }] },
    legacyLog: ['audit:caps:roots', 'audit:root:file:///srv/app', 'audit:lint:/srv/app', 'audit:lint:/srv/lib'],
  },
  'a helper asking inside a try, whose catch takes what the code after the answer throws': {
    fixture: 'maybe-ask-try',
    calls: [{ name: 'lint_checkout', arguments: {} }],
    script: { roots: [{ uri: 'file://a b/' }] },
    legacyLog: ['audit:caps:roots', 'audit:root:file://a b/', 'audit:fallback:TypeError: Invalid URL'],
  },
  'a helper asking through another in a try, whose catch falls back before the question': {
    fixture: 'maybe-ask-through-try',
    calls: [
      { name: 'get_guide', arguments: { path: '/srv/app' } },
      { name: 'get_guide', arguments: { path: '/srv/../etc' } },
      { name: 'get_guide', arguments: { path: '/home/app' } },
    ],
    script: { roots: [{ uri: 'file:///srv' }] },
    legacyLog: ['audit:check:/srv/app', 'audit:read:/srv/app', 'audit:check:/srv/../etc', 'audit:fallback:/srv/../etc climbs out', 'audit:check:/home/app'],
    // Thrown after the try: never caught by it, on either era.
    toolError: '/home/app is outside the allowed roots',
  },
  'a helper asking through another in a try, whose catch takes what the inner result half throws': {
    fixture: 'maybe-ask-through-try',
    calls: [{ name: 'get_guide', arguments: { path: '/srv/app' } }],
    script: { roots: [] },
    legacyLog: ['audit:check:/srv/app', 'audit:fallback:no roots'],
  },
  'a helper whose local, read from a store that loads on first use, is set again after its question before it is read': {
    fixture: 'maybe-ask-dead-local',
    calls: [
      { name: 'open_session', arguments: {} },
      { name: 'open_session', arguments: { sessionId: 's1' } },
      { name: 'open_session', arguments: { sessionId: 's9' } },
    ],
    script: { elicit: () => accept({ root: '/srv/app' }) },
    legacyLog: ['audit:load-sessions', 'audit:create:s1:/srv/app', 'audit:open:s1', 'audit:open:s1'],
    toolError: 'Unknown session s9',
  },
  'a helper whose local is set again after its question, declined: its early error comes from the result half': {
    fixture: 'maybe-ask-dead-local',
    calls: [{ name: 'open_session', arguments: {} }],
    script: { elicit: () => ({ action: 'decline' }) },
    legacyLog: [],
    toolError: 'No project chosen',
  },
  'a helper that may answer with what an async lookup resolves to, awaited in its request half': {
    fixture: 'maybe-ask-promised-value',
    calls: [
      { name: 'deploy', arguments: { region: 'saved' } },
      { name: 'deploy', arguments: { region: 'us-east' } },
      { name: 'deploy', arguments: {} },
    ],
    script: { elicit: () => accept({ region: 'eu-west' }) },
    legacyLog: ['audit:read-saved', 'count:regions', 'audit:deploy:saved-none', 'audit:deploy:region:us-east', 'audit:deploy:region:eu-west'],
  },
  'a helper that awaits after its question, in its async result half': {
    fixture: 'maybe-ask-await-after',
    calls: [
      { name: 'archive', arguments: { table: 'logs' } },
      { name: 'archive', arguments: { table: 'scratch' } },
      { name: 'archive', arguments: { table: 'users' } },
    ],
    script: { elicit: (params) => (String(params.message).includes('users') ? { action: 'decline' } : accept({ ok: true })) },
    legacyLog: [
      'audit:approve:logs',
      'count:logs',
      'audit:approved:logs:3',
      'delete:logs=3',
      'audit:approve:scratch',
      'delete:scratch=0',
      'audit:approve:users',
    ],
  },
  "a helper whose found table travels with its question, beside the handler's own local": {
    fixture: 'maybe-ask-carried',
    calls: [
      { name: 'purge_counted', arguments: {} },
      { name: 'purge', arguments: { table: 'users' } },
    ],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['count:users', 'audit:lookup', 'count:logs', 'audit:chose:logs', 'delete:logs=3', 'delete:users=5'],
  },
  'a helper whose found table travels with its question (declined)': {
    fixture: 'maybe-ask-carried',
    calls: [{ name: 'purge', arguments: {} }],
    script: { elicit: () => ({ action: 'decline' }) },
    legacyLog: ['audit:lookup', 'count:logs', 'delete:none=0'],
  },
  'a question per item of an array': {
    fixture: 'loops',
    calls: [{ name: 'delete_each', arguments: { tables: ['logs', 'users', 'cache'] } }],
    script: { elicit: (params) => (String(params.message).includes('users') ? { action: 'decline' } : accept({ ok: true })) },
    legacyLog: ['count:logs', 'delete:logs=3', 'count:users', 'count:cache', 'delete:cache=0'],
  },
  'a question asked again until the answer is valid': {
    fixture: 'loops',
    calls: [{ name: 'ask_age', arguments: {} }],
    script: { elicit: (params) => (String(params.message).startsWith('How old') ? accept({ age: -3 }) : accept({ age: 36 })) },
    legacyLog: ['audit:age:36:2'],
  },
  'a counted for loop': {
    fixture: 'loops',
    calls: [{ name: 'rate_items', arguments: { items: ['tea', 'coffee', 'water'] } }],
    script: { elicit: (params) => accept({ stars: String(params.message).length % 5 }) },
    legacyLog: ['audit:rated:6'],
  },
  'resource reads that ask (fixed and templated)': {
    fixture: 'resources',
    calls: [
      { kind: 'resource', name: 'audit://log' },
      { kind: 'resource', name: 'table://users' },
    ],
    script: { elicit: () => accept({}) },
    legacyLog: ['audit:log:accept', 'count:users'],
  },
  'a question in a catch block, with a finally': {
    fixture: 'resume-in-place',
    calls: [
      { name: 'upload', arguments: { file: 'a.txt' } },
      { name: 'upload', arguments: { file: 'b.bad' } },
      { name: 'upload', arguments: { file: 'c.bad' } },
    ],
    script: { elicit: (params) => (String(params.message).includes('b.bad') ? accept({ ok: true }) : { action: 'decline' }) },
    legacyLog: [
      'audit:upload:a.txt',
      'audit:sending:a.txt',
      'audit:uploaded:a.txt',
      'audit:upload:done',
      'audit:upload:b.bad',
      'audit:sending:b.bad',
      'audit:failed:b.bad:Error: rejected',
      'audit:retried:b.bad',
      'audit:upload:done',
      'audit:upload:c.bad',
      'audit:sending:c.bad',
      'audit:failed:c.bad:Error: rejected',
      'audit:upload:done',
    ],
  },
  'a question in a branch, and one after the branch': {
    fixture: 'resume-in-place',
    calls: [
      { name: 'purge', arguments: { table: 'logs', force: false } },
      { name: 'purge', arguments: { table: 'users', force: true } },
      { name: 'purge', arguments: { table: 'keep', force: false } },
    ],
    script: {
      elicit: (params) =>
        params.message === 'Why?' ? accept({ reason: 'old' }) : params.message === 'Purge logs?' ? accept({ ok: true }) : { action: 'decline' },
    },
    legacyLog: ['audit:purge:logs:confirmed', 'delete:logs=3', 'audit:purge:users:forced', 'delete:users=5'],
  },
  'a question in each branch of an if/else': {
    fixture: 'resume-in-place',
    calls: [
      { name: 'choose', arguments: { mode: 'fast' } },
      { name: 'choose', arguments: { mode: 'slow' } },
    ],
    script: { elicit: (params) => (String(params.message).startsWith('Fast') ? accept({ ok: true }) : { action: 'decline' }) },
    legacyLog: ['audit:mode:fast', 'audit:fast:accept', 'audit:mode:slow', 'audit:slow:decline'],
  },
  'a question in nested loops': {
    fixture: 'resume-in-place',
    calls: [{ name: 'sort', arguments: { groups: [['a', 'b'], ['c']] } }],
    script: { elicit: (params) => (String(params.message) === 'Keep b?' ? { action: 'decline' } : accept({ ok: true })) },
    legacyLog: ['audit:group:a+b', 'audit:group:c'],
  },
  'a question in a do...while loop': {
    fixture: 'resume-in-place',
    calls: [{ name: 'code', arguments: {} }],
    script: { elicit: (params) => accept({ code: params.message === 'Code?' ? 'x' : 'abcd' }) },
    legacyLog: ['audit:code:abcd:2'],
  },
  "a question in a switch's default case": {
    fixture: 'resume-in-place',
    calls: [
      { name: 'kind', arguments: { kind: 'quick' } },
      { name: 'kind', arguments: { kind: 'slow' } },
    ],
    script: { elicit: () => accept({ ok: true }) },
    legacyLog: ['audit:kind:slow:accept'],
  },
  'a question in a loop, and one after the loop': {
    fixture: 'resume-in-place',
    calls: [{ name: 'tally', arguments: { items: ['x', 'y'] } }],
    script: {
      elicit: (params) => (params.message === 'How many x?' ? accept({ n: 2 }) : params.message === 'How many y?' ? accept({ n: 3 }) : accept({ ok: true })),
    },
    legacyLog: ['audit:saved:5'],
  },
};

/**
 * The 2026-07-28 era adds cache hints (`cacheScope`, `ttlMs`) to every resources/read result,
 * whoever the handler is: the protocol's doing, not the migration's, so they are left out.
 */
function withoutCacheHints(results: unknown[]): unknown[] {
  return results.map((r) => {
    if (!r || typeof r !== 'object' || !('contents' in r)) return r;
    const { cacheScope: _scope, ttlMs: _ttl, ...rest } = r as Record<string, unknown>;
    return rest;
  });
}

async function record(module: ServerModule, era: Era, scenario: Scenario) {
  const world = createWorld();
  const recording = await runCalls(() => module.createServer(world), era, scenario.calls, scenario.script);
  return { ...recording, log: world.log };
}

describe.each(Object.entries(scenarios))('%s', (_name, scenario) => {
  it('behaves like the legacy server on both eras', async () => {
    const legacy = await record(await importFixture<ServerModule>(scenario.fixture, 'input'), 'legacy', scenario);
    expect(legacy.log).toEqual(scenario.legacyLog);
    expect(legacy.questions.length).toBeGreaterThan(0);
    const errors = legacy.results.filter((r) => JSON.stringify(r).includes('"isError":true'));
    expect(errors.map((r) => JSON.stringify(r))).toEqual(scenario.toolError ? [expect.stringContaining(scenario.toolError)] : []);

    const migrated = await importFixture<ServerModule>(scenario.fixture, 'output');
    for (const era of ['modern', 'legacy'] as const) {
      const run = await record(migrated, era, scenario);
      expect(run.era).toBe(era);
      expect({ era, results: withoutCacheHints(run.results) }).toEqual({ era, results: legacy.results });
      expect({ era, questions: run.questions }).toEqual({ era, questions: legacy.questions });
      expect({ era, log: run.log }).toEqual({ era, log: legacy.log });
    }
  });
});

it('the unmigrated legacy server fails on the 2026-07-28 era, so the comparison above is not vacuous', async () => {
  const scenario = scenarios['confirm then delete (accepted)']!;
  const run = await record(await importFixture<ServerModule>(scenario.fixture, 'input'), 'modern', scenario);
  expect(JSON.stringify(run.results)).toContain('Server-to-client requests are not available');
  expect(run.log).toEqual(['count:logs']);
});

// A URL elicitation thrown as an error (-32042): a 2025 client showed the URL and, once the user
// was done, called again, and the handler ran from the top, opening a new payment and asking
// again. The migrated handler asks the same question; the retry goes on after it with the
// payment opened before it (the one the user paid), and opens nothing twice.
describe('a URL elicitation thrown before code that goes on', () => {
  const fixture = 'url-throw-reads-skipped-locals';
  const capabilities = { elicitation: { form: {}, url: {} } };
  // The payment page: the user pays the payment its URL names.
  const pay = (world: World, url: unknown) => world.audit(`paid:${String(url).split('/').pop()}`);
  const url = (payment: string) => `https://pay.example.com/${payment}`;

  /** The 2025 client's flow: a call that fails with -32042 shows each URL, then is made once more. */
  async function legacyFlow(world: World, call: ToolCall) {
    const legacy = await importFixture<ServerModule>(fixture, 'input');
    const { client, close } = await link(
      () => legacy.createServer(world),
      'legacy',
      { capabilities },
      () => undefined,
    );
    const questions: Question[] = [];
    const results: unknown[] = [];
    try {
      for (const attempt of [1, 2]) {
        try {
          results.push(stripMeta(await client.callTool(call)));
          break;
        } catch (error) {
          if (!(error instanceof ProtocolError) || error.code !== -32042) throw error;
          results.push({ attempt, code: error.code });
          for (const params of (error.data as { elicitations: ElicitRequestURLParams[] }).elicitations) {
            questions.push(normaliseQuestion('elicitation/create', params));
            pay(world, params.url);
          }
        }
      }
    } finally {
      await close();
    }
    return { results, questions, log: world.log };
  }

  it.each([
    {
      call: { name: 'checkout', arguments: { order: 'ord-7' } },
      message: 'Pay 42 EUR for ord-7',
      payment: 'pay-ord-7',
      after: 'shipped:ord-7',
      text: 'Paid with pay-ord-7-1.',
    },
    {
      call: { name: 'reorder', arguments: { order: 'ord-9' } },
      message: 'Pay 5 CHF again',
      payment: 'pay-ord-9',
      after: 'reordered:ord-9',
      text: 'Reordered ord-9 for 5 CHF.',
    },
  ])(
    '$call.name asks what the 2025 server asked, once, and the retry uses the payment opened before it, on both eras',
    async ({ call, message, payment, after, text }) => {
      const [first, second] = [`${payment}-1`, `${payment}-2`];
      const question = (id: string, elicitationId?: string) => ({
        method: 'elicitation/create',
        params: { mode: 'url', message, url: url(id), ...(elicitationId ? { elicitationId } : {}) },
      });
      // The 2025 retry opened a second payment, which nobody had paid: the user was asked again.
      const legacy = await legacyFlow(createWorld(), call);
      expect(legacy.results).toEqual([
        { attempt: 1, code: -32042 },
        { attempt: 2, code: -32042 },
      ]);
      expect(legacy.questions).toEqual([question(first, first), question(second, second)]);
      expect(legacy.log).toEqual([`audit:opened:${first}`, `audit:paid:${first}`, `audit:opened:${second}`, `audit:paid:${second}`]);

      const migrated = await importFixture<ServerModule>(fixture, 'output');
      for (const era of ['modern', 'legacy'] as const) {
        const world = createWorld();
        const script: ClientScript = { elicit: (params) => (pay(world, params.url), { action: 'accept' }) };
        const run = await runCalls(() => migrated.createServer(world), era, [call], script, capabilities);
        expect({ era, results: run.results }).toEqual({ era, results: [{ content: [{ type: 'text', text }] }] });
        // The 2026-07-28 URL question has no elicitationId; the SDK's 2025 shim makes one up.
        const asked = run.questions.map((q) => ({ ...q, params: { ...(q.params as object), elicitationId: undefined } }));
        expect({ era, questions: asked }).toEqual({ era, questions: [question(first)] });
        // The payment opened once, before its question; the one paid is the one the retry goes on with.
        expect({ era, log: world.log }).toEqual({ era, log: [`audit:opened:${first}`, `audit:paid:${first}`, `audit:${after}:${first}`] });
      }
    },
  );
});

// A client without form elicitation: none at all, or URL mode only (declaring a mode takes away
// the 2025 meaning of a bare `elicitation: {}`, form).
describe.each([
  ['did not declare elicitation', { sampling: {}, roots: { listChanged: true } }, false],
  ['declared URL elicitation only', { elicitation: { url: {} }, sampling: {}, roots: { listChanged: true } }, true],
])('a client that %s', (_name, capabilities, urlOnly) => {
  const cases = [
    // The handler's own check asks only whether `elicitation` is declared: with URL mode only it
    // goes on, and the question fails.
    { fixture: 'capability-checks', call: { name: 'careful_delete', arguments: { table: 'logs' } }, log: urlOnly ? [] : ['audit:refused:logs'] },
    { fixture: 'elicit-confirm-delete', call: { name: 'delete_records', arguments: { table: 'logs' } }, log: ['count:logs'] },
    // The helper's own check: without elicitation it takes its "cannot ask" path, and goes on.
    {
      fixture: 'maybe-ask-capability-guard',
      call: { name: 'truncate_table', arguments: { table: 'logs' } },
      log: urlOnly ? [] : ['audit:cannot-ask:logs', 'delete:logs=3'],
    },
    // The service's own check: no heartbeat is started, and the gate lets the tool go on.
    ...(urlOnly ? [] : [{ fixture: 'maybe-ask-release', call: { name: 'purge', arguments: { table: 'logs' } }, log: ['delete:logs=3'] }]),
    {
      fixture: 'control-flow',
      call: { name: 'rename_project', arguments: { project: 'apollo' } },
      log: [
        'audit:rename:apollo',
        'audit:rename:fallback:SdkError: Client does not support form elicitation.',
        'audit:rename:finally',
        'audit:rename:apollo->apollo-copy',
      ],
    },
  ];

  it.each(cases)('$fixture is never sent the question and fails (or falls back) as the push API did, on both eras', async ({ fixture, call, log }) => {
    const legacyWorld = createWorld();
    const legacyModule = await importFixture<ServerModule>(fixture, 'input');
    const legacy = { ...(await runCalls(() => legacyModule.createServer(legacyWorld), 'legacy', [call], {}, capabilities)), log: legacyWorld.log };
    expect(legacy.log).toEqual(log);
    expect(legacy.questions).toEqual([]);

    // Both eras: on the 2025 era the request carries no capabilities, and the ones the client
    // declared at initialize decide (the SDK's shim would otherwise fail the whole call, and a
    // try/catch fallback would never run).
    const migratedModule = await importFixture<ServerModule>(fixture, 'output');
    for (const era of ['modern', 'legacy'] as const) {
      const migratedWorld = createWorld();
      const migrated = await runCalls(() => migratedModule.createServer(migratedWorld), era, [call], {}, capabilities);
      expect(migrated.questions, era).toEqual([]);
      expect(migrated.results, era).toEqual(legacy.results);
      expect(migratedWorld.log, era).toEqual(legacy.log);
    }
  });
});
