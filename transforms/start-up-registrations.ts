/**
 * jscodeshift transform: registrations a 2026-07-28 connection would never see, made where the
 * server is built. Those behind a `getClientCapabilities()` read (which answers undefined
 * there) are made for every client, and those in an initialize hook (`oninitialized`, a
 * `notifications/initialized` handler) move to where the hook is set. mrtr-handlers.ts runs
 * this too, after its own rewrite; this file applies only this concern:
 *
 *   npx jscodeshift -t node_modules/mrtr-codemod/dist/transforms/start-up-registrations.js --parser=tsx src/
 */
import type { FileInfo } from 'jscodeshift';
import { rewriteInitHooks } from '../src/rewrite/init-hooks.ts';
import { rewriteRegistrationGuards } from '../src/rewrite/registration-guards.ts';

export const parser = 'tsx';

export default function transformer(file: FileInfo): string | undefined {
  const { output } = rewriteInitHooks(rewriteRegistrationGuards(file.source, file.path).output, file.path);
  return output === file.source ? undefined : output;
}
