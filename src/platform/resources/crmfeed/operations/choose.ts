import { defineOperation, q, LEVEL, type Context } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { conflict } from '../../../errors.ts';
import { crmCommunityWire, crmGroupWire, crmLinkWire } from '../../../../shared/wire/crmfeed.ts';
import { communityUrl, linkRecord, providerID, providerName as nameSchema } from '../fields.ts';
import { choose, type Choice } from '../repository.ts';
import { ask, providerName, providerOf, requireLink, tokenOf } from './access.ts';

// Spec §4.10: the communities and groups the event's token sees (asked of the provider at each call),
// and the admins' choice of one of each, stored on the link (the community's and group's ids and names
// as the provider gave them; the sync pushes people into them).

const admins = { kind: 'event', levels: LEVEL.ADMIN } as const;
const eventID = q(id, 'the event');

export const crmfeedGetCommunities = defineOperation({
  name: 'crmfeed.getCommunities',
  summary:
    "Lists the communities the event's CRM token sees, asked of the provider (admins); a provider failure is a 502 naming it.",
  methods: ['GET'],
  params: { eventID },
  auth: admins,
  writes: false,
  answer: crmCommunityWire,
  async handler(ctx, p) {
    const link = await requireLink(ctx, p.eventID);
    const provider = providerOf(ctx);
    const list = await ask(() => provider.communities(tokenOf(ctx, link)));
    return list.map((c) => ({ communityId: c.id, communityName: c.name, communityUrl: c.url }));
  },
});

export const crmfeedGetGroups = defineOperation({
  name: 'crmfeed.getGroups',
  summary:
    "Lists the groups the event's CRM token sees, of the chosen community when there is one, asked of the provider (admins).",
  methods: ['GET'],
  params: { eventID },
  auth: admins,
  writes: false,
  answer: crmGroupWire,
  async handler(ctx, p) {
    const link = await requireLink(ctx, p.eventID);
    const provider = providerOf(ctx);
    const list = await ask(() => provider.groups(tokenOf(ctx, link), link.communityId));
    return list.map((g) => ({ groupId: g.id, groupName: g.name }));
  },
});

/** Stores a choice on the event's link and answers the link. */
async function store(ctx: Context, eventID: number, choice: Choice) {
  const row = await choose(ctx.db, eventID, choice);
  if (!row) throw conflict('no CRM connected to this event');
  return [linkRecord(row, providerName(ctx))];
}

export const crmfeedSetCommunity = defineOperation({
  name: 'crmfeed.setCommunity',
  summary:
    'Chooses the community the sync pushes people into (admins); another community than before also clears the group.',
  methods: ['GET'],
  params: {
    eventID,
    communityId: q(providerID, "the community's id at the provider (crmfeed.getCommunities)"),
    communityUrl: q(communityUrl, "the community's page (shown, never fetched)"),
    communityName: q(nameSchema, "the community's name"),
  },
  auth: admins,
  writes: true,
  answer: crmLinkWire,
  async handler(ctx, p) {
    const link = await requireLink(ctx, p.eventID);
    // A group belongs to a community: a group chosen in another community would not be found there.
    const group = link.communityId === p.communityId ? {} : { groupId: '', groupName: '' };
    return store(ctx, p.eventID, {
      communityId: p.communityId,
      communityUrl: p.communityUrl,
      communityName: p.communityName,
      ...group,
    });
  },
});

export const crmfeedUnsetCommunity = defineOperation({
  name: 'crmfeed.unsetCommunity',
  summary: 'Forgets the chosen community, and the group chosen in it (admins).',
  methods: ['GET'],
  params: { eventID },
  auth: admins,
  writes: true,
  answer: crmLinkWire,
  handler: (ctx, p) =>
    store(ctx, p.eventID, { communityId: '', communityUrl: '', communityName: '', groupId: '', groupName: '' }),
});

export const crmfeedSetGroup = defineOperation({
  name: 'crmfeed.setGroup',
  summary: 'Chooses the group the sync pushes people into (admins).',
  methods: ['GET'],
  params: {
    eventID,
    groupId: q(providerID, "the group's id at the provider (crmfeed.getGroups)"),
    groupName: q(nameSchema, "the group's name"),
  },
  auth: admins,
  writes: true,
  answer: crmLinkWire,
  handler: (ctx, p) => store(ctx, p.eventID, { groupId: p.groupId, groupName: p.groupName }),
});

export const crmfeedUnsetGroup = defineOperation({
  name: 'crmfeed.unsetGroup',
  summary: 'Forgets the chosen group (admins).',
  methods: ['GET'],
  params: { eventID },
  auth: admins,
  writes: true,
  answer: crmLinkWire,
  handler: (ctx, p) => store(ctx, p.eventID, { groupId: '', groupName: '' }),
});
