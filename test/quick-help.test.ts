// The help texts the launcher prints without loading the CLI are the CLI's own: what `main`
// prints for the same command line, at the same width, in English; anything else is left to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.ts';
import { englishLocale, HELP_COMMAND_LINES, KEPT_WIDTHS, quickAnswer, renderHelpTexts, type HelpTexts } from '../src/cli/quick-help.ts';
import { packageVersion } from '../src/package-version.ts';

const ENGLISH = { LANG: 'en_US.UTF-8' };

async function printed(argv: readonly string[], columns: number | undefined): Promise<string> {
  let out = '';
  const code = await main(argv, { stdout: (text) => void (out += text), stderr: () => undefined, cwd: process.cwd(), stdoutColumns: columns });
  expect(code).toBe(0);
  return out;
}

describe('help answered from the kept texts', () => {
  let texts: HelpTexts;
  // yargs reads the locale from the environment: English here, as the build has it.
  const saved = process.env.LC_ALL;
  beforeAll(async () => {
    process.env.LC_ALL = 'en_US.UTF-8';
    texts = await renderHelpTexts(main, packageVersion());
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.LC_ALL;
    else process.env.LC_ALL = saved;
  });

  it('prints what the CLI prints, for every kept command line and width, and the version', async () => {
    for (const width of KEPT_WIDTHS) {
      // Off a terminal yargs wraps to 80; on a wide one, to 100 at most.
      const columns = width === 80 ? undefined : 140;
      for (const { argv } of HELP_COMMAND_LINES) {
        const quick = quickAnswer(argv, ENGLISH, columns, texts);
        expect(quick, argv.join(' ')).toBe(await printed(argv, columns));
      }
    }
    expect(quickAnswer(['--version'], ENGLISH, undefined, texts)).toBe(await printed(['--version'], undefined));
    expect(quickAnswer(['-v'], ENGLISH, undefined, texts)).toBe(await printed(['-v'], undefined));
    expect(texts.help['80']!['migrate']).toContain('--dry-run');
    expect(texts.help['100']!['']).not.toBe(texts.help['80']!['']);
  });

  it('leaves to the CLI another width, another language, other arguments, or no kept texts', () => {
    expect(quickAnswer(['--help'], ENGLISH, 90, texts)).toBeUndefined();
    expect(quickAnswer(['--help'], { LANG: 'de_DE.UTF-8' }, undefined, texts)).toBeUndefined();
    expect(quickAnswer(['--help'], { LC_ALL: 'fr_FR', LANG: 'en_US' }, undefined, texts)).toBeUndefined();
    expect(quickAnswer(['migrate', '--help', 'src'], ENGLISH, undefined, texts)).toBeUndefined();
    expect(quickAnswer(['--help', 'migrate'], ENGLISH, undefined, texts)).toBeUndefined();
    expect(quickAnswer(['check', '.'], ENGLISH, undefined, texts)).toBeUndefined();
    expect(quickAnswer(['--help'], ENGLISH, undefined, undefined)).toBeUndefined();
    expect(quickAnswer(['--help'], { LC_ALL: 'C' }, undefined, texts)).toBe(texts.help['80']![''] + '\n');
  });

  it('takes the locale as yargs does: the first of LC_ALL, LC_MESSAGES, LANG, LANGUAGE that is set', () => {
    expect(englishLocale({})).toBe(true);
    expect(englishLocale({ LANG: 'en_GB.UTF-8' })).toBe(true);
    expect(englishLocale({ LANG: 'C.UTF-8' })).toBe(true);
    expect(englishLocale({ LANG: 'POSIX' })).toBe(true);
    expect(englishLocale({ LC_ALL: '', LANG: 'ja_JP.UTF-8' })).toBe(false);
    expect(englishLocale({ LC_MESSAGES: 'pt_BR', LANG: 'en_US' })).toBe(false);
    expect(englishLocale({ LANGUAGE: 'pirate' })).toBe(false);
  });
});
