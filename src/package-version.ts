// This package's version (its package.json): `--version`, and the SARIF driver's version.
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached === undefined) {
    try {
      cached = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      cached = '0.0.0';
    }
  }
  return cached;
}
