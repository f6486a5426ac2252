import { sql } from 'kysely';
import { defineOperation, pageOf, pageParams, q } from '../../table.ts';
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
    let query = ctx.db.selectFrom('company');
    if (!ctx.caller!.operator) {
      query = query.where('companyID', 'in', (e) =>
        e.selectFrom('companyPerson').select('companyID').where('personID', '=', ctx.caller!.personID),
      );
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

    const rows = await query
      .select(COMPANY_ADMIN_FIELDS)
      .orderBy('companyID')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    if (!page.paginated) return rows;
    const { n } = await query.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  },
});
