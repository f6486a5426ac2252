import { b, defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { crmLinkWire } from '../../../../shared/wire/crmfeed.ts';
import { crmToken, linkRecord } from '../fields.ts';
import { linkOf, removeLink, saveLink } from '../repository.ts';
import { hintOf, sealToken } from '../secret.ts';
import { providerOf, providerName, requireLink, secretKey } from './access.ts';

// Spec §4.10 crmfeed.get / crmfeed.unlink, and how an event gets linked, which the spec does not show
// (Podium extension crmfeed.link). All for the event's admins.

const admins = { kind: 'event', levels: LEVEL.ADMIN } as const;
const eventID = q(id, 'the event');

/**
 * Podium extension: links the event to the platform's CRM provider with the event's token there (POST:
 * a secret never rides in a URL). The provider is the operator's (CRM_URL); the caller names no address.
 * The token is sealed; linking again replaces it and keeps the community and group.
 */
export const crmfeedLink = defineOperation({
  name: 'crmfeed.link',
  summary:
    "Links the event to the platform's CRM provider with the event's token there (admins); the token is stored sealed and never shown again.",
  methods: ['POST'],
  params: { eventID, token: b(crmToken, "the event's token at the CRM provider") },
  auth: admins,
  extension: true,
  writes: true,
  answer: crmLinkWire,
  async handler(ctx, p) {
    const provider = providerOf(ctx);
    const row = await saveLink(ctx.db, {
      eventID: p.eventID,
      companyID: ctx.access!.companyID,
      token: sealToken(secretKey(ctx), p.token),
      tokenHint: hintOf(p.token),
      personID: ctx.caller!.personID,
      linkedAt: ctx.now,
    });
    return [linkRecord(row, provider.name)];
  },
});

/** Spec §4.10: the tokens linked to the event — one link at most, its token masked; none: no rows. */
export const crmfeedGet = defineOperation({
  name: 'crmfeed.get',
  summary:
    "The event's CRM link (admins): provider, the token masked, the chosen community and group, and the sync's progress; no rows when not linked.",
  methods: ['GET'],
  params: { eventID },
  auth: admins,
  writes: false,
  answer: crmLinkWire,
  async handler(ctx, p) {
    const row = await linkOf(ctx.db, p.eventID);
    return row ? [linkRecord(row, providerName(ctx))] : [];
  },
});

/** Spec §4.10: unlinks the event (its sealed token is deleted); answers the link as it was. */
export const crmfeedUnlink = defineOperation({
  name: 'crmfeed.unlink',
  summary: 'Unlinks the event from the CRM provider (admins): its token is deleted; a sync under way stops.',
  methods: ['GET'],
  params: { eventID },
  auth: admins,
  writes: true,
  answer: crmLinkWire,
  async handler(ctx, p) {
    const row = await requireLink(ctx, p.eventID);
    await removeLink(ctx.db, p.eventID);
    return [linkRecord(row, providerName(ctx))];
  },
});
