import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Page, Paged } from '../../db/page.ts';
import { COMPANY_LEVEL } from '../../auth/levels.ts';
import { COMPANY_ADMIN_FIELDS, type CompanyRecord } from './repository.ts';

/** company.find's selections (spec §4.3; their meaning is Podium's, see the operation). */
export const COMPANY_SELECTIONS = [
  'all',
  'live',
  'androidQueue',
  'iosQueue',
  'lacksIcon',
  'lacksBundle',
  'missingLinks',
  'notWhiteLabel',
] as const;
export type CompanySelection = (typeof COMPANY_SELECTIONS)[number];

/**
 * One page of the companies a reader may list: operators every company, anyone else those they
 * belong to (personID 0: none). The store-review flags are seen only by a company's admins (as in
 * company.get): other members' rows hide them, and a queue selection, which would reveal them, lists
 * only the companies the reader administers.
 */
export async function findCompanies(
  db: Kysely<DB>,
  reader: { personID: number; operator: boolean },
  s: ReadonlySet<CompanySelection>,
  now: number,
  page: Page,
): Promise<Paged<CompanyRecord>> {
  const { personID } = reader;
  let query = db.selectFrom('company');
  const adminOf = db
    .selectFrom('companyPerson')
    .select('companyID')
    .where('personID', '=', personID)
    .where('level', '=', COMPANY_LEVEL.ADMIN);
  if (!reader.operator) {
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
          .where('event.dateEnd', '>=', now),
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
  const admin = reader.operator ? undefined : new Set((await adminOf.execute()).map((r) => r.companyID));
  const rows = found.map((r): CompanyRecord => {
    if (!admin || admin.has(r.companyID)) return r;
    const { androidReview: _a, iosReview: _i, initialDemo: _d, ...open } = r;
    return open;
  });
  if (!page.paginated) return rows;
  const { n } = await query.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}
