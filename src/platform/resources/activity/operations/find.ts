import {
  bOpt,
  defineOperation,
  pageOf,
  pageParams,
  q,
  qOpt,
  ANY_LEVEL,
  LEVEL,
  type Context,
} from '../../../kernel/table.ts';
import { email, id, selection, timestamp } from '../../../schemas.ts';
import { ApiError, badRequest, notFound } from '../../../errors.ts';
import { grantSchema, readableEvent } from '../../../auth/grant.ts';
import { requireCaller, requireEvent } from '../../../auth/access.ts';
import type { ActivityViewer } from '../record.ts';
import { findProgram, isInvited, listEventID, type EnrollmentState, type ProgramFilter } from '../find.ts';
import { personInEvent } from '../repository.ts';
import { throttleAddress } from '../../../limits/address.ts';

/** Selections of the token's person's form (spec §4.5); the others allow a subset. */
const SELECTIONS = [
  'all', 'all+meeting', 'approved', 'enrolled', 'enrolled+meeting', 'available', 'denied', 'paid', 'present',
] as const; // prettier-ignore
type Selection = (typeof SELECTIONS)[number];
/** A `+` written unencoded in a query string arrives as a space: accepted as the same value. */
const ALIASES = { 'all meeting': 'all+meeting', 'enrolled meeting': 'enrolled+meeting' } as const;
const OF_PERSON_OR_LIST: ReadonlySet<Selection> = new Set(['all', 'enrolled', 'available']);

/** Wrong invite e-mails allowed per event per client address per hour (the invitee list is not public). */
export const WRONG_INVITES_PER_CLIENT = 20;
const HOUR_MS = 3_600_000;

type Form = 'person' | 'list' | 'own' | 'public';

/**
 * Spec §4.5, five forms: (1) Q selection, personID: an admin reads the program of a person;
 * (2) Q selection, listID: an admin reads it for a list; (3) Q selection: the token's person (any
 * member level); (4) GET without selection: the public program (visible and public event; Podium
 * extension Q grant for a private one); (5) POST with B invite?: the same, and `invite` must be on
 * the event's invitee list. dateBegin/dateEnd keep the activities that end at or after dateBegin and
 * begin at or before dateEnd. Ordered by dateBegin, activityID; paginated like every list (spec §8:
 * 20 by default, at most 100 a page), so a whole program is read page by page (the client and the
 * widgets do it in parallel from `total`).
 */
export default defineOperation({
  name: 'activity.find',
  summary: 'Lists the activities of an event: the public program, or by selection for a person or a list.',
  methods: ['GET', 'POST'],
  params: {
    eventID: q(id, 'the event'),
    selection: qOpt(
      selection([...SELECTIONS, ...(Object.keys(ALIASES) as (keyof typeof ALIASES)[])], false),
      `${SELECTIONS.join(', ')} (with personID or listID: all, enrolled, available); combine with |`,
    ),
    personID: qOpt(id, 'the activities of this person (event admins; with selection)'),
    listID: qOpt(id, 'the activities of this list (event admins; with selection)'),
    dateBegin: qOpt(timestamp, 'activities that end at or after this time'),
    dateEnd: qOpt(timestamp, 'activities that begin at or before this time'),
    grant: qOpt(grantSchema, 'Podium extension: the grant of event.checkAccessCode for a private event'),
    invite: bOpt(email, 'public form (POST): an e-mail of the event invitee list'),
    ...pageParams,
  },
  variants: [
    ['eventID', 'selection', 'personID'],
    ['eventID', 'selection', 'listID'],
    ['eventID', 'selection'],
    ['eventID'],
  ],
  auth: { kind: 'public' },
  cors: true,
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    if (p.personID !== undefined && p.listID !== undefined)
      throw badRequest('personID and listID cannot be used together');
    if (p.dateBegin !== undefined && p.dateEnd !== undefined && p.dateEnd < p.dateBegin)
      throw badRequest('dateEnd cannot be before dateBegin');
    const form: Form =
      p.personID !== undefined ? 'person' : p.listID !== undefined ? 'list' : p.selection ? 'own' : 'public';
    if (form !== 'public' && !p.selection) throw badRequest(`selection cannot be empty (with ${form}ID)`);
    if (form !== 'public' && p.invite !== undefined) throw badRequest('invite goes only with the public form');
    const values = new Set<Selection>(
      [...(p.selection?.values ?? [])].map((v) => (v in ALIASES ? ALIASES[v as keyof typeof ALIASES] : v) as Selection),
    );
    if (form === 'person' || form === 'list') {
      const other = [...values].find((v) => !OF_PERSON_OR_LIST.has(v));
      if (other !== undefined)
        throw badRequest(`selection ${other} cannot be used with ${form}ID (all, enrolled or available)`);
    }

    let filter: ProgramFilter = { kind: 'all' };
    let viewer: ActivityViewer | undefined;
    if (form === 'public') {
      await readableEvent(ctx, p.eventID, p.grant);
      if (p.invite !== undefined) await checkInvite(ctx, p.eventID, p.invite);
      viewer = ctx.caller ? { personID: ctx.caller.personID } : undefined;
    } else {
      requireCaller(ctx);
      await requireEvent(ctx, p.eventID, form === 'own' ? ANY_LEVEL : LEVEL.ADMIN);
      if (form === 'person' && !(await personInEvent(ctx.db, p.eventID, p.personID!))) throw notFound('person');
      if (form === 'list') {
        if ((await listEventID(ctx.db, p.listID!)) !== p.eventID) throw notFound('list');
        filter = { kind: 'list', listID: p.listID!, limited: values.has('enrolled'), open: values.has('available') };
      } else {
        const personID = form === 'person' ? p.personID! : ctx.caller!.personID;
        viewer = { personID };
        const states = [...values]
          .filter((v) => v !== 'all' && v !== 'all+meeting' && v !== 'available')
          .map((v) => (v === 'enrolled+meeting' ? 'enrolled' : v) as EnrollmentState);
        filter = { kind: 'person', personID, states, available: values.has('available'), lockedOut: form === 'own' };
      }
    }
    return findProgram(ctx.db, p.eventID, p, filter, pageOf(p), viewer);
  },
});

/** Spec §4.5 B invite: the e-mail must be on the event's invitee list; wrong ones are throttled. */
async function checkInvite(ctx: Context, eventID: number, invite: string): Promise<void> {
  const key = `invite:${eventID}:${throttleAddress(ctx.clientIp)}`;
  const seen = await ctx.counter.peek(key);
  if (seen.count >= WRONG_INVITES_PER_CLIENT) {
    throw new ApiError(429, 'too many e-mails not on the invitee list, try again later', {
      'Retry-After': String(Math.max(1, Math.ceil(seen.resetMs / 1000))),
    });
  }
  if (!(await isInvited(ctx.db, eventID, invite))) {
    await ctx.counter.hit(key, HOUR_MS);
    throw new ApiError(403, 'invite is not on the invitee list');
  }
}
