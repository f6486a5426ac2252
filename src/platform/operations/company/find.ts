import { sql } from 'kysely';
import { COMPANY_LEVEL, defineOperation, pageOf, pageParams, q, type Row } from '../../table.ts';
import { selection } from '../../schemas.ts';
import { COMPANY_ADMIN_FIELDS } from '../../domain/company/repository.ts';

const SELECTIONS = [
  'all',
  'live',
  'androidQueue',
  'iosQueue',
  'lacksIcon',
  'lacksBundle',
  'missingLinks',
  'notWhiteLabel',
] as const;

/**
 * Spec §4.3. Operators see every company; anyone else, the companies they belong to.
 * Selections (meaning not shown in the spec, defined by Podium): live = has a visible, unarchived
 * event that has not ended; androidQueue/iosQueue = waiting for store review; lacksIcon = no app
 * icon; lacksBundle = no Android or no iOS bundle; missingLinks = no Android or no iOS store link;
 * notWhiteLabel = neither bundle set.
 */
export default defineOperation({
  name: 'company.find',
  summary: 'Lists companies by selection (combine with |).',
  methods: ['GET'],
  params: {
    selection: q(selection(SELECTIONS, false), SELECTIONS.join(', ')),
    ...pageParams,
  },
  auth: { kind: 'token' },
  writes: false,
  async handler(ctx, p) {
    const page = pageOf(p);
    const s = p.selection.values;
    const caller = ctx.caller!;
    let query = ctx.db.selectFrom('company');
    // An event-scope token is limited to its event and has no company level (spec §5.3,
    // companyLevelOf): it lists no company. It used to list its person's companies with the
    // admin-only fields. personID 0 matches no one.
    const personID = caller.scope === 'system' ? caller.personID : 0;
    // The store-review flags are seen only by a company's admins (as in company.get): they used to be
    // listed to external users too. Other members' rows hide them, and a queue selection, which would
    // reveal them, lists only the companies the caller administers.
    const adminOf = ctx.db
      .selectFrom('companyPerson')
      .select('companyID')
      .where('personID', '=', personID)
      .where('level', '=', COMPANY_LEVEL.ADMIN);
    if (!caller.operator) {
      query = query.where('companyID', 'in', (e) =>
        e.selectFrom('companyPerson').select('companyID').where('personID', '=', personID),
      );
      if (s.has('androidQueue') || s.has('iosQueue')) query = query.where('companyID', 'in', adminOf);
    }
    if (s.has('live')) {
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('event')
            .select(sql`1`.as('one'))
            .whereRef('event.companyID', '=', 'company.companyID')
            .where('event.visible', '=', 1)
            .where('event.archived', '=', 0)
            .where('event.dateEnd', '>=', ctx.now),
        ),
      );
    }
    if (s.has('androidQueue')) query = query.where('androidReview', '=', 1);
    if (s.has('iosQueue')) query = query.where('iosReview', '=', 1);
    if (s.has('lacksIcon')) query = query.where('appIcon', '=', '');
    if (s.has('lacksBundle')) query = query.where((w) => w.or([w('androidBundle', '=', ''), w('iosBundle', '=', '')]));
    if (s.has('missingLinks')) query = query.where((w) => w.or([w('androidApp', '=', ''), w('iosApp', '=', '')]));
    if (s.has('notWhiteLabel')) query = query.where('androidBundle', '=', '').where('iosBundle', '=', '');

    const found = await query
      .select(COMPANY_ADMIN_FIELDS)
      .orderBy('companyID')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const admin = caller.operator ? undefined : new Set((await adminOf.execute()).map((r) => r.companyID));
    const rows = found.map((r): Row => {
      if (!admin || admin.has(r.companyID)) return r;
      const { androidReview: _a, iosReview: _i, initialDemo: _d, ...open } = r;
      return open;
    });
    if (!page.paginated) return rows;
    const { n } = await query.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  },
});
