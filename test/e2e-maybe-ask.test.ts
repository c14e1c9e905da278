// A server whose tools, in several modules, resolve what they are not told through a shared
// helper module whose helpers may answer without asking: a default from the environment, an
// error when there is nothing to choose from, else a question; one tool asks for a project,
// then for a team of it (two rounds). Migrated by the engine, the helpers are split once and
// every calling handler asks through their halves; run through the real client, the migrated
// server gives the original's results, asks its questions and does its work once each, on both
// eras, including the calls a helper answers without asking.
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { runCodemod } from '../src/engine/run.ts';
import { runCalls, type ClientScript, type ToolCall } from './support/harness.ts';
import { typecheck } from './support/typecheck.ts';
import { expectSameOnBothEras, type LoggedRecording } from './support/logged-run.ts';
import { migratedPair } from './support/migrated-pair.ts';

const PROJECT: Record<string, string> = {
  'package.json': '{ "name": "planner", "private": true, "type": "module" }\n',
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { createTracker } from './shared/tracker.js';
import { registerProjectTools } from './tools/projects.js';
import { registerBacklogTools } from './tools/backlog.js';

export function createServer(log: string[]): McpServer {
  const server = new McpServer({ name: 'planner', version: '1.0.0' });
  const tracker = createTracker(log);
  registerProjectTools(server, tracker);
  registerBacklogTools(server, tracker);
  return server;
}
`,
  'src/shared/tracker.ts': `// The issue tracker the tools read: each call is logged, so a test sees it made once.
export interface Tracker {
  projects(): string[];
  teams(project: string): string[];
  backlog(project: string, team: string): string[];
}

const TEAMS: Record<string, string[]> = { apollo: ['core', 'web'], zephyr: [] };

export function createTracker(log: string[]): Tracker {
  return {
    projects() {
      log.push('projects');
      return Object.keys(TEAMS);
    },
    teams(project) {
      log.push(\`teams:\${project}\`);
      return TEAMS[project] ?? [];
    },
    backlog(project, team) {
      log.push(\`backlog:\${project}/\${team}\`);
      return [\`\${project}-\${team}-1\`, \`\${project}-\${team}-2\`];
    },
  };
}
`,
  'src/shared/choose.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import type { Tracker } from './tracker.js';

export type Chosen = { resolved: string } | { response: { content: Array<{ type: 'text'; text: string }>; isError?: boolean } };

export async function chooseProject(server: McpServer, tracker: Tracker, message?: string): Promise<Chosen> {
  // A default from the environment needs no question.
  const preset = process.env.PLANNER_PROJECT;
  if (preset) {
    return { resolved: preset };
  }

  const projects = tracker.projects();
  if (projects.length === 0) {
    return { response: { content: [{ type: 'text', text: 'No projects to choose from.' }], isError: true } };
  }

  const result = await server.server.elicitInput({
    mode: 'form',
    message: message ?? 'Choose a project.',
    requestedSchema: {
      type: 'object',
      properties: { project: { type: 'string', title: 'Project', enum: projects } },
      required: ['project'],
    },
  });

  if (result.action !== 'accept' || !result.content?.project) {
    return { response: { content: [{ type: 'text', text: 'No project chosen.' }] } };
  }
  return { resolved: String(result.content.project) };
}

export async function chooseTeam(server: McpServer, tracker: Tracker, project: string, message?: string): Promise<Chosen> {
  const teams = tracker.teams(project);
  if (teams.length === 0) {
    return { response: { content: [{ type: 'text', text: \`No teams in \${project}.\` }], isError: true } };
  }

  const result = await server.server.elicitInput({
    mode: 'form',
    message: message ?? 'Choose a team.',
    requestedSchema: {
      type: 'object',
      properties: { team: { type: 'string', title: 'Team', enum: teams } },
      required: ['team'],
    },
  });

  if (result.action !== 'accept' || !result.content?.team) {
    return { response: { content: [{ type: 'text', text: 'No team chosen.' }] } };
  }
  return { resolved: String(result.content.team) };
}
`,
  'src/tools/projects.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { chooseProject } from '../shared/choose.js';
import type { Tracker } from '../shared/tracker.js';

export function registerProjectTools(server: McpServer, tracker: Tracker): void {
  server.registerTool('list_teams', { inputSchema: z.object({ project: z.string().optional() }) }, async ({ project }) => {
    try {
      let resolvedProject = project;
      if (!resolvedProject) {
        const result = await chooseProject(server, tracker, 'Choose the project to list teams for.');
        if ('response' in result) return result.response;
        resolvedProject = result.resolved;
      }
      const teams = tracker.teams(resolvedProject);
      return { content: [{ type: 'text', text: teams.join(', ') || 'none' }] };
    } catch (error) {
      return { content: [{ type: 'text', text: \`Failed: \${String(error)}\` }], isError: true };
    }
  });
}
`,
  'src/tools/backlog.ts': `import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { chooseProject, chooseTeam } from '../shared/choose.js';
import type { Tracker } from '../shared/tracker.js';

export function registerBacklogTools(server: McpServer, tracker: Tracker): void {
  server.registerTool(
    'backlog',
    { inputSchema: z.object({ project: z.string().optional(), team: z.string().optional() }) },
    async ({ project, team }) => {
      let resolvedProject: string = project ?? '';
      if (!resolvedProject) {
        const result = await chooseProject(server, tracker, 'Choose the project of the backlog.');
        if ('response' in result) return result.response;
        resolvedProject = result.resolved;
      }

      let resolvedTeam: string = team ?? '';
      if (!resolvedTeam) {
        const result = await chooseTeam(server, tracker, resolvedProject, \`Choose the team of \${resolvedProject}.\`);
        if ('response' in result) return result.response;
        resolvedTeam = result.resolved;
      }

      const items = tracker.backlog(resolvedProject, resolvedTeam);
      return { content: [{ type: 'text', text: \`\${resolvedProject}/\${resolvedTeam}: \${items.join(', ')}\` }] };
    },
  );
}
`,
};

const CALLS: ToolCall[] = [
  { name: 'list_teams', arguments: {} },
  { name: 'list_teams', arguments: { project: 'zephyr' } },
  { name: 'backlog', arguments: {} },
  { name: 'backlog', arguments: { project: 'apollo' } },
  { name: 'backlog', arguments: { project: 'zephyr' } },
  { name: 'backlog', arguments: { project: 'apollo', team: 'core' } },
  { name: 'list_teams', arguments: {} },
];

/** Chooses apollo and then web, but declines the third project question. */
function script(): ClientScript {
  let projectQuestions = 0;
  return {
    elicit: (params) => {
      const properties = (params.requestedSchema as { properties: Record<string, unknown> }).properties;
      if ('team' in properties) return { action: 'accept', content: { team: 'web' } };
      projectQuestions++;
      return projectQuestions === 3 ? { action: 'decline' } : { action: 'accept', content: { project: 'apollo' } };
    },
  };
}

type ServerModule = { createServer(log: string[]): McpServer };

const pair = migratedPair<ServerModule>('maybe-ask-', PROJECT);
const { root, read, load } = pair;
afterAll(() => {
  delete process.env.PLANNER_PROJECT;
});

/** The calls run on one server, with the effects it logged. */
async function run(server: ServerModule, era: 'modern' | 'legacy'): Promise<LoggedRecording> {
  const log: string[] = [];
  const recording = await runCalls(() => server.createServer(log), era, CALLS, script());
  return { ...recording, log };
}

describe('helpers that may answer without asking, shared by tools in several modules', () => {
  it('are split once, and every calling handler, in each module, asks through their halves', async () => {
    expect(pair.result.errors).toEqual([]);
    expect(pair.result.sites.map((s) => [s.file, s.status, s.code])).toEqual([
      ['src/shared/choose.ts', 'migrated', undefined],
      ['src/shared/choose.ts', 'migrated', undefined],
    ]);
    const choose = await read('migrated', 'src/shared/choose.ts');
    expect(choose).toContain(
      'export async function chooseProjectRequest(tracker: Tracker, message?: string): Promise<{ ask: InputRequest } | { value: Chosen }> {',
    );
    expect(choose).toContain('export function chooseProjectResult(result: ElicitResult): Chosen {');
    expect(choose).toContain('export function chooseTeamResult(result: ElicitResult): Chosen {');
    const backlog = await read('migrated', 'src/tools/backlog.ts');
    expect(backlog).toContain(
      "import {\n  chooseProjectRequest,\n  chooseProjectResult,\n  chooseTeamRequest,\n  chooseTeamResult,\n} from '../shared/choose.js';",
    );
    // The halves build the questions and name the answers' type: the handlers need neither.
    expect(backlog).not.toContain('inputRequired');
    expect(backlog).not.toContain('ElicitResult');
    expect(backlog).toContain('const mrtrOutcome2 = await chooseTeamRequest(tracker, resolvedProject, `Choose the team of ${resolvedProject}.`);');
    // What the first helper resolved travels; the team, read from the arguments, is derived again.
    expect(backlog).toContain("mrtr.decided('result2', { resolvedProject }, { result2: mrtrOutcome2.value });");
    expect(backlog).toContain("let resolvedTeam: string = team ?? '';");
    expect(backlog).not.toMatch(/@mrtr-todo/);
  });

  it('typechecks, and a second run changes nothing', async () => {
    const files = (which: string) =>
      Object.keys(PROJECT)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => path.join(root, which, f));
    expect(typecheck(files('original'))).toEqual([]);
    expect(typecheck([...files('migrated'), path.join(root, 'migrated', 'src/mrtr-request-state.ts')])).toEqual([]);
    const again = await runCodemod({ paths: ['src'], write: false, cwd: path.join(root, 'migrated') });
    expect(again.errors).toEqual([]);
    expect(again.changed).toEqual([]);
  });

  it('gives the same results, asks the same questions and does its work once, on both eras', async () => {
    const original = await run(await load('original'), 'legacy');
    // What the calls do, read from the original: each question where the helper asks, none where it need not.
    expect(original.results.map((r) => (r as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      'core, web',
      'none',
      'apollo/web: apollo-web-1, apollo-web-2',
      'apollo/web: apollo-web-1, apollo-web-2',
      'No teams in zephyr.',
      'apollo/core: apollo-core-1, apollo-core-2',
      'No project chosen.',
    ]);
    expect(original.questions.map((q) => (q.params as { message: string }).message)).toEqual([
      'Choose the project to list teams for.',
      'Choose the project of the backlog.',
      'Choose the team of apollo.',
      'Choose the team of apollo.',
      'Choose the project to list teams for.',
    ]);
    expect(original.log).toEqual([
      'projects',
      'teams:apollo',
      'teams:zephyr',
      'projects',
      'teams:apollo',
      'backlog:apollo/web',
      'teams:apollo',
      'backlog:apollo/web',
      'teams:zephyr',
      'backlog:apollo/core',
      'projects',
    ]);
    await expectSameOnBothEras(original, await load('migrated'), run);
  });

  it('answers without asking where the helper has a default, on both eras', async () => {
    process.env.PLANNER_PROJECT = 'apollo';
    try {
      const original = await run(await load('original'), 'legacy');
      // No project question at all: only the team questions of the backlog calls that need one.
      expect(original.questions.map((q) => (q.params as { message: string }).message)).toEqual(['Choose the team of apollo.', 'Choose the team of apollo.']);
      expect(original.log).not.toContain('projects');
      await expectSameOnBothEras(original, await load('migrated'), run);
    } finally {
      delete process.env.PLANNER_PROJECT;
    }
  });
});
