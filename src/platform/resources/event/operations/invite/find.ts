import { z } from 'zod';
import { defineOperation, pageOf, pageParams, q, qOpt, LEVEL } from '../../../../kernel/table.ts';
import { id, text } from '../../../../schemas.ts';
import { findInvites } from '../../../registration/invites.ts';

/** Podium extension: the invitee list of an event, each with whether (and as whom) they registered. */
export default defineOperation({
  name: 'event.invite.find',
  summary: 'Lists the invitee list of an event with who has registered.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    selection: qOpt(
      z.enum(['all', 'registered', 'not-registered'], 'must be all, registered or not-registered'),
      'all (default), registered or not-registered',
    ),
    query: qOpt(text(320), 'part of the e-mail address'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: false,
  async handler(ctx, p) {
    return findInvites(ctx.db, p.eventID, { selection: p.selection ?? 'all', query: p.query, page: pageOf(p) });
  },
});
