import { z } from 'zod';
import { url } from '../../schemas.ts';
import type { CrmLink } from '../../../shared/wire/crmfeed.ts';
import type { CrmLinkRow } from './repository.ts';
import { maskToken } from './secret.ts';

// The crmfeed field list (docs/api/crmfeed.md): what crmfeed.link and the set… operations take, and the
// link as its admins read it.

/** The event's token at the provider: sent in a header, so visible ASCII only (no spaces, no line breaks). */
export const crmToken = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII characters (no spaces)');

/** A provider's id of a community or group: any text without control characters. */
export const providerID = z
  .string()
  .max(200, 'must be at most 200 characters')
  .regex(/^[^\p{Cc}]+$/u, 'must be text without control characters');

/** A community's or group's name, as the provider shows it. */
export const providerName = z
  .string()
  .max(500, 'must be at most 500 characters')
  .regex(/^[^\p{Cc}]+$/u, 'must be text without control characters');

/** The community's page: stored and shown, never fetched by the platform. */
export const communityUrl = url;

const str = (n: number) => String(n);

/** The row as the event's admins read it: never the sealed token, only its mask. */
export function linkRecord(r: CrmLinkRow, provider: string): CrmLink {
  return {
    eventID: str(r.eventID),
    provider,
    token: maskToken(r.tokenHint),
    communityId: r.communityId,
    communityUrl: r.communityUrl,
    communityName: r.communityName,
    groupId: r.groupId,
    groupName: r.groupName,
    linkedBy: str(r.personID),
    linkedAt: str(Number(r.linkedAt)),
    syncStatus: r.syncStatus,
    syncPushed: str(r.syncPushed),
    syncTotal: str(r.syncTotal),
    syncQueuedAt: str(Number(r.syncQueuedAt)),
    syncFinishedAt: str(Number(r.syncFinishedAt)),
    syncError: r.syncError,
  };
}
