// Why a site is not migrated, in the words the marker and the report use.
import type { LegacySite } from '../analyse/find-sites.ts';

/** A site that cannot be migrated: why, and what the user should do. */
export class Refusal {
  constructor(
    readonly code: string,
    readonly reason: string,
    readonly next: string,
    readonly site?: LegacySite,
  ) {}

  /** The same refusal, pinned to the site it is about. */
  at(site: LegacySite): Refusal {
    return new Refusal(this.code, this.reason, this.next, site);
  }
}

export const MANUAL_STEP =
  'migrate by hand: return inputRequired({ inputRequests, requestState }) and resume from ctx.mcpReq.requestState() on the retry';
