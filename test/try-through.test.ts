// A call of an inner maybe-ask helper alone in a try whose catch leaves the helper (src/plan/
// try-through.ts) is split; any other try around such a call keeps the helper whole, with the
// reason in its marker. The split itself is fixture maybe-ask-through-try, run on both eras.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { transformSource } from '../src/transform.ts';

const INPUT = readFileSync(new URL('../fixtures/maybe-ask-through-try/input.ts', import.meta.url), 'utf8');

const CALL = `  let allowed: boolean;
  try {
    allowed = await isAllowed(server, world, path);
  } catch (error) {
    world.audit(\`fallback:\${error instanceof Error ? error.message : String(error)}\`);
    return undefined;
  }
`;

function reasonWith(replacement: string): string | undefined {
  expect(INPUT).toContain(CALL);
  const { plan } = transformSource(INPUT.replace(CALL, replacement), 'guide.ts');
  expect(plan.handlers).toEqual([]);
  return plan.sites.find((s) => s.code === 'in-helper')?.reason;
}

describe('a call of a helper that may ask, in a try', () => {
  it('is split when alone in the try, whose catch leaves the helper', () => {
    const { plan } = transformSource(INPUT, 'guide.ts');
    expect(plan.sites.map((s) => s.status)).toEqual(['migrated']);
  });

  it.each([
    [
      'a catch that goes on after the try',
      "  try {\n    const checked = await isAllowed(server, world, path);\n  } catch (error) {\n    world.audit('x');\n  }\n  const allowed = true;\n",
      /has a catch block \(line \d+\) that can go on after the try/,
    ],
    [
      'a finally block',
      CALL.replace('  }\n', '  } finally {\n    world.audit("done");\n  }\n').replace(/\n$/, '\n'),
      /has a finally block around the call of `isAllowed\(\)`/,
    ],
    ['more than the call in the try', CALL.replace('    allowed = await', '    world.audit("try");\n    allowed = await'), /holds more than `isAllowed\(\)`/],
    [
      'a catch reading a local of the helper',
      `  const started = Date.now();\n${CALL.replace('    return undefined;', '    world.audit(String(started));\n    return undefined;')}`,
      /reads `started`, a local of the helper/,
    ],
  ])('keeps the helper whole for %s', (_name, replacement, reason) => {
    expect(reasonWith(replacement)).toMatch(reason);
  });
});
