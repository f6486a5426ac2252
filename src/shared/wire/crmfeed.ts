import { z } from 'zod';
import { id, s } from './values.ts';

// The customer-relationship feed (crmfeed.*, company.person.sync; docs/api/crmfeed.md): an event's link
// to the platform's CRM provider, what the provider lists, and the sync's progress.

/** An event's link as its admins read it (crmfeed.get and every crmfeed write): the token masked. */
export const crmLinkWire = z.object({
  eventID: id,
  /** The provider's name, as its errors name it (CRM_NAME, else CRM_URL's host). */
  provider: s,
  /** The event's token at the provider, masked: `****` and its last four characters. */
  token: z.string(),
  communityId: s,
  communityUrl: s,
  communityName: s,
  groupId: s,
  groupName: s,
  /** The admin who linked it, and when (Unix seconds). */
  linkedBy: id,
  linkedAt: z.string(),
  /** company.person.sync's progress for this event: '', queued, running, done or failed. */
  syncStatus: s,
  /** People the provider acknowledged in this run, of syncTotal. */
  syncPushed: z.string(),
  syncTotal: z.string(),
  /** Unix seconds the run was asked for, and when it ended ('0' while it has not). */
  syncQueuedAt: z.string(),
  syncFinishedAt: z.string(),
  /** The last failure, one line naming the provider; '' when none. */
  syncError: s,
});
export type CrmLink = z.infer<typeof crmLinkWire>;

/** A community the event's token sees (crmfeed.getCommunities): the values crmfeed.setCommunity takes. */
export const crmCommunityWire = z.object({ communityId: z.string(), communityName: s, communityUrl: s });

/** A group the event's token sees (crmfeed.getGroups): the values crmfeed.setGroup takes. */
export const crmGroupWire = z.object({ groupId: z.string(), groupName: s });

/** What company.person.sync queued: one row per company, with the linked events whose people go out. */
export const crmSyncWire = z.object({
  companyID: id,
  /** The company's linked events, comma-separated: one job each (crmfeed.get shows its progress). */
  eventIDs: z.string(),
  syncStatus: z.string(),
});
