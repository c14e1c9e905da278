// Whether a TypeScript file's MCP SDK types can resolve: a checkout before `npm install` has no
// `node_modules/@modelcontextprotocol` in its folder or above, so the checker cannot tell a
// server from anything else, and the first step a marker should name is the install.
import { existsSync } from 'node:fs';
import path from 'node:path';

const TYPESCRIPT = /\.(?:ts|tsx|mts|cts)$/;

/** Folders already looked at: whether the SDK is installed for the files in them. */
const installedFor = new Map<string, boolean>();

/** True when `file` is TypeScript and no folder from its own up to the root has the SDK installed. */
export function sdkTypesMissing(file: string): boolean {
  return TYPESCRIPT.test(file) && !file.endsWith('.d.ts') && !sdkInstalled(path.dirname(file));
}

function sdkInstalled(dir: string): boolean {
  const known = installedFor.get(dir);
  if (known !== undefined) return known;
  const parent = path.dirname(dir);
  const found = existsSync(path.join(dir, 'node_modules', '@modelcontextprotocol')) || (parent !== dir && sdkInstalled(parent));
  installedFor.set(dir, found);
  return found;
}
