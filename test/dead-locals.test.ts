// A helper's local set before its question from code that runs once, which the code after the
// question sets again before anything reads it (src/plan/liveness.ts `setBeforeRead`): the
// result half declares it without its value. Any other order keeps the helper whole, with the
// statement that set the local in its marker. The split itself is fixture maybe-ask-dead-local,
// run on both eras.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
import { transformSource, transformWithTypes } from '../src/transform.ts';

const INPUT_PATH = new URL('../fixtures/maybe-ask-dead-local/input.ts', import.meta.url).pathname;
const INPUT = readFileSync(INPUT_PATH, 'utf8');

const AFTER = `    if (answer.action !== 'accept') return 'No project chosen';
    session = sessions.create(String(answer.content?.root));
  }
  return session;`;

function helperSite(source: string) {
  const { plan } = transformSource(source, 'sessions.ts');
  return plan.sites.find((s) => s.code === 'in-helper');
}

describe('a local set before the question and again after it', () => {
  it('is declared without its value when it is set before it is read', () => {
    const { plan, output } = transformSource(INPUT, 'sessions.ts');
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    // Neither the store's lookup nor its early error runs in the result half.
    const result = output.slice(output.indexOf('function openSessionResult'));
    expect(result).not.toContain('sessions.get');
    expect(result).toContain('sessions.create(');
  });

  it('is declared without its value when a function made after it is set reads it', () => {
    const closure = INPUT.replace(AFTER, AFTER.replace('  return session;', '  const idOf = () => session.id;\n  return { ...session, id: idOf() };'));
    expect(closure).toContain('const idOf');
    const { plan, output } = transformSource(closure, 'sessions.ts');
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    expect(output.slice(output.indexOf('function openSessionResult'))).toContain('const idOf = () => session.id;');
  });

  it.each([
    [
      'read before it is set',
      AFTER.replace(
        "    if (answer.action !== 'accept')",
        "    if (answer.action !== 'accept' && session) return 'Still open';\n    if (answer.action !== 'accept')",
      ),
    ],
    ['set only on one branch', AFTER.replace('    session = sessions.create', '    if (answer.content?.root) session = sessions.create')],
    ['set from its own value', AFTER.replace('sessions.create(String(answer.content?.root))', 'session ?? sessions.create(String(answer.content?.root))')],
  ])('keeps the helper whole when it is %s', (_name, after) => {
    expect(INPUT).toContain(AFTER);
    const site = helperSite(INPUT.replace(AFTER, after));
    expect(site?.status).toBe('marked');
    expect(site?.reason).toMatch(/reads `session`, set by `let session: Session \| undefined = sessionId \? sessions\.get/);
  });

  it('keeps the helper whole when what the result half derives again reads the local', () => {
    // Declared with a value that derives again, then changed by the store's lookup: `known` derives again from it.
    const derived = INPUT.replace(
      '  let session: Session | undefined = sessionId ? sessions.get(sessionId) : undefined;\n',
      '  let session: Session | undefined = undefined;\n  if (sessionId) session = sessions.get(sessionId);\n  const known = session !== undefined;\n',
    ).replace('sessions.create(String(answer.content?.root));', "sessions.create(String(answer.content?.root) + (known ? '' : '/'));");
    expect(derived).toContain('(known ?');
    expect(derived).toContain('const known');
    const site = helperSite(derived);
    expect(site?.status).toBe('marked');
    expect(site?.reason).toMatch(/reads `session`, set by `let session: Session \| undefined = undefined;`/);
  });

  it('keeps the helper whole when the local is declared without a type', () => {
    const site = helperSite(INPUT.replace('let session: Session | undefined =', 'let session ='));
    expect(site?.status).toBe('marked');
    expect(site?.reason).toMatch(/reads `session`, set by `let session = sessionId/);
  });

  it('keeps the helper whole when the question is in a try, whose catch could read the old value', () => {
    const tried = INPUT.replace(
      '  if (!session) {\n    const answer = await server.server.elicitInput({',
      '  if (!session && server.server.getClientCapabilities()?.elicitation) try {\n    const answer = await server.server.elicitInput({',
    ).replace(
      `${AFTER.split('\n  return session;')[0]}\n  return session;`,
      `${AFTER.split('\n  return session;')[0]} catch {\n    return String(session);\n  }\n  return session;`,
    );
    expect(tried).toContain('} catch {');
    const site = helperSite(tried);
    expect(site?.status).toBe('marked');
    expect(site?.reason).toMatch(/reads `session`, set by `let session: Session \| undefined = sessionId/);
  });
});

describe('a primitive the result half derives again, handed to code that runs once before the question', () => {
  // `origin` derives again from the argument; `track(origin)` runs once and is handed it.
  const handed = INPUT.replace('  if (!session) {\n', "  const origin = sessionId ?? 'new';\n  track(origin);\n  if (!session) {\n")
    .replace('sessions.create(String(answer.content?.root));', 'sessions.create(`${String(answer.content?.root)}#${origin}`);')
    .replace(
      'async function openSession(',
      'const trail: string[] = [];\nfunction track(entry: string): void {\n  trail.push(entry);\n}\n\nasync function openSession(',
    );

  it('is derived again when the checker shows it is a primitive: the code it was handed cannot have changed it', async () => {
    expect(handed).toContain('track(origin);');
    const { plan, output } = await transformWithTypes(handed, INPUT_PATH, new TsTypeFactsProvider());
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
    const result = output.slice(output.indexOf('function openSessionResult'));
    expect(result).toContain("const origin = sessionId ?? 'new';");
    expect(result).not.toContain('track(');
  });

  it('keeps the helper whole when it is an object, which the code it was handed may change', async () => {
    const object = handed
      .replace("const origin = sessionId ?? 'new';", "const origin = { id: sessionId ?? 'new' };")
      .replace('function track(entry: string): void {\n  trail.push(entry);', 'function track(entry: { id: string }): void {\n  trail.push(entry.id);')
      .replace('#${origin}`', '#${origin.id}`');
    expect(object).toContain('trail.push(entry.id)');
    const { plan } = await transformWithTypes(object, INPUT_PATH, new TsTypeFactsProvider());
    expect(plan.sites.find((s) => s.code === 'in-helper')?.reason).toMatch(
      /reads `origin`, which `track\(origin\);` \(line \d+\) is handed before it and may change/,
    );
  });

  it('keeps the helper whole without types, which cannot show it', () => {
    const site = transformSource(handed, 'sessions.ts').plan.sites.find((s) => s.code === 'in-helper');
    expect(site?.reason).toMatch(/reads `origin`, which `track\(origin\);` \(line \d+\) is handed before it and may change/);
  });
});
