import { defineOperation, pageOf, pageParams, q, qOpt, LEVEL } from '../../../kernel/table.ts';
import { id, wholeNumber } from '../../../schemas.ts';
import { grantSchema, readableEvent } from '../../../auth/grant.ts';
import { programChangeWire } from '../../../../shared/wire/program.ts';
import { findProgramChanges } from '../repository.ts';

/**
 * Podium extension (issue 13): the versioned changelog of an event's program — sessions added,
 * removed, moved, given another room, renamed, their speakers changed — newest first. Read like the
 * public program (activity.find): anyone for a visible and public event, a grant or a token of someone
 * related for a private one. Changes written while the event was hidden (a draft) reach only the
 * event's admins (and its company's), so a session added and removed before the event went out never
 * shows its name. `since` answers only the versions after the one a reader last saw.
 */
export default defineOperation({
  name: 'activity.changes',
  summary:
    'Lists the changes of an event program (sessions added, removed, moved, room, renamed, speakers), newest first, each with its version.',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    since: qOpt(wholeNumber, 'only the versions after this one (the last version the reader saw)'),
    grant: qOpt(grantSchema, 'the grant of event.checkAccessCode for a private event'),
    ...pageParams,
  },
  auth: { kind: 'public' },
  extension: true,
  cors: true,
  cachePublic: true,
  writes: false,
  answer: programChangeWire,
  async handler(ctx, p) {
    const { access } = await readableEvent(ctx, p.eventID, p.grant);
    const hidden = ((access?.level ?? 0) & LEVEL.ADMIN) !== 0;
    return findProgramChanges(ctx.db, p.eventID, { since: p.since ?? 0, hidden }, pageOf(p));
  },
});
