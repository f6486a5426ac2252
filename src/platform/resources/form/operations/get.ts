import { defineOperation, q, qOpt } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { grantSchema, readableEvent } from '../../../auth/grant.ts';
import { formRecord } from '../settings.ts';
import { eventByID } from '../../event/repository.ts';

/**
 * Podium extension: the registration form of an event as a widget renders it — enrollment settings,
 * whether it takes registrations now (and why not), the custom fields in order, the attendee-type tags.
 */
export default defineOperation({
  name: 'form.get',
  summary: 'Reads the registration form of an event: settings, state, fields and attendee tags.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    grant: qOpt(grantSchema, 'the grant of event.checkAccessCode, for a private event'),
  },
  auth: { kind: 'public' },
  cors: true,
  extension: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    await readableEvent(ctx, p.eventID, p.grant);
    // The form counts seats from the event's record (readableEvent reads only what the gate needs).
    return [await formRecord(ctx.db, (await eventByID(ctx.db, p.eventID))!, ctx.now)];
  },
});
