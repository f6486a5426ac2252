import { defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { email, id } from '../../../../schemas.ts';
import { notFound } from '../../../../errors.ts';
import { inviteRecord } from '../../../registration/invites.ts';
import { removeInvite } from '../../../registration/invites.ts';

/** Podium extension: takes an address off the invitee list (a registration made with it stays). */
export default defineOperation({
  name: 'event.invite.dismiss',
  summary: 'Removes an e-mail address from the invitee list of an event.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    email: q(
      email.transform((v) => v.toLowerCase()),
      'the invited address',
    ),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const row = await removeInvite(ctx.db, p.eventID, p.email);
    if (!row) throw notFound('invite');
    return [inviteRecord(row)];
  },
});
