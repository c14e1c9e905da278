// The CLI from the TypeScript sources, for tests: what bin/mrtr-codemod.js runs from dist/,
// without a build. tsx is registered with this project's tsconfig, not the one of the folder a
// test runs in (a user's compiler settings must not change how the codemod itself is compiled).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
const { cli } = await import('../../src/cli/main.ts');
await cli(process.argv.slice(2));
