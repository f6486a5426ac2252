import { z } from 'zod';
import { sql } from 'kysely';
import { defineOperation, pageOf, pageParams, q, qOpt, LEVEL } from '../../../table.ts';
import { id, orientation, selection, text } from '../../../schemas.ts';
import { attendeeQuery } from '../../../domain/enrollment/records.ts';
import { SELECTED_APPROVAL } from '../../../domain/approval.ts';

const SELECTIONS = ['all', 'approved', 'denied', 'paid', 'present'] as const;

/** Sort columns: the columns of the answer that can order it. */
const ORDERS = {
  enrollmentID: 'activityPerson.enrollmentID',
  personID: 'activityPerson.personID',
  name: 'eventPerson.name',
  email: 'eventPerson.email',
  position: 'activityPerson.position',
  approved: 'activityPerson.approved',
  paid: 'activityPerson.paid',
  present: 'activityPerson.present',
  priori: 'activityPerson.priori',
  rating: 'activityPerson.rating',
  dateCreated: 'activityPerson.dateCreated',
} as const;
type Order = keyof typeof ORDERS;

/**
 * Spec §4.6. The attendees of an activity, for its event's admins and staff. Selections (combine with
 * |, all must hold): approved (1), denied (0: registered, not approved — the waiting list), paid,
 * present. Default order: the approved by enrollment, then the waiting list in queue order.
 */
export default defineOperation({
  name: 'activity.person.find',
  summary: 'Lists the attendees of an activity (event admins and staff).',
  methods: ['GET'],
  params: {
    activityID: q(id, 'the activity'),
    selection: q(
      selection(SELECTIONS, false),
      `${SELECTIONS.join(', ')}; combine with |. denied: registered and not approved (approved 0, spec §3)`,
    ),
    order: qOpt(
      z.enum(Object.keys(ORDERS) as [Order], `must be one of ${Object.keys(ORDERS).join(', ')}`),
      'sort column (default: approved first, then position, then enrollmentID)',
    ),
    orderOrientation: qOpt(orientation, 'ASC or DESC'),
    query: qOpt(text(200), 'text contained in the name or e-mail (any case)'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN | LEVEL.STAFF, via: ['activityID'] },
  writes: false,
  async handler(ctx, p) {
    const page = pageOf(p);
    const chosen = p.selection.values;
    let base = attendeeQuery(ctx.db).where('activityPerson.activityID', '=', p.activityID);
    // Spec §3 (domain/approval.ts): denied = registered and not approved (0), as in every .find.
    for (const s of ['approved', 'denied'] as const)
      if (chosen.has(s)) base = base.where('activityPerson.approved', '=', SELECTED_APPROVAL[s]);
    if (chosen.has('paid')) base = base.where('activityPerson.paid', '=', 1);
    if (chosen.has('present')) base = base.where('activityPerson.present', '=', 1);
    if (p.query !== undefined) {
      // Contained as typed: % and _ are not wildcards.
      const like = `%${p.query.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
      base = base.where(
        sql<boolean>`(lower(${sql.ref('eventPerson.name')}) like ${like} escape '\\' or lower(${sql.ref('eventPerson.email')}) like ${like} escape '\\')`,
      );
    }
    const dir = p.orderOrientation === 'DESC' ? 'desc' : 'asc';
    const ordered =
      p.order !== undefined
        ? base.orderBy(ORDERS[p.order], dir).orderBy('activityPerson.enrollmentID')
        : base
            .orderBy('activityPerson.approved', 'desc')
            .orderBy('activityPerson.position')
            .orderBy('activityPerson.enrollmentID');
    const rows = await ordered.limit(page.limit).offset(page.offset).execute();
    if (!page.paginated) return rows;
    const { n } = await base
      .clearSelect()
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  },
});
