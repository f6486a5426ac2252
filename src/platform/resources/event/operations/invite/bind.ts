import { b, defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { emailList, inviteRecord } from '../../../registration/invites.ts';
import { addInvites } from '../../../registration/invites.ts';

/**
 * Podium extension: puts e-mail addresses on the invitee list of an event (spec §4.4: with the invite
 * requirement on, only they may register). Addresses already on the list stay as they are.
 */
export default defineOperation({
  name: 'event.invite.bind',
  summary: 'Adds e-mail addresses to the invitee list of an event.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    email: b(emailList, 'one address, or several separated by commas, semicolons, spaces or new lines (at most 1000)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    return (await addInvites(ctx.db, p.eventID, p.email, ctx.now)).map(inviteRecord);
  },
});
