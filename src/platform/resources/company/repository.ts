import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { hashToken, newToken } from '../../auth/secrets.ts';
import { companyWire } from '../../../shared/wire/company.ts';
import { keysOf, type RecordOf } from '../records.ts';

export const ONBOARDING_TTL_SECONDS = 30 * 86400;

/** Columns of the company record (spec §2.6 Company) plus Podium's namespace, mainColor, location. */
export const COMPANY_FIELDS = [
  'companyID', 'namespace', 'shortName', 'storeTitle', 'appIcon', 'storeIcon', 'cover', 'splash',
  'androidBundle', 'iosBundle', 'androidApp', 'iosApp', 'agreement', 'keywords', 'backgroundColor',
  'navigationBarBackgroundColor', 'mainColor', 'location', 'androidVersion', 'iosVersion', 'language', 'currency',
] as const; // prettier-ignore
/**
 * The company record as its admins see it, with the store-review queue flags: the keys of its wire
 * row, exactly (it does not compile otherwise).
 */
export const COMPANY_ADMIN_FIELDS = keysOf(companyWire)([
  ...COMPANY_FIELDS,
  'androidReview',
  'iosReview',
  'initialDemo',
] as const);

/** A company as a reader sees it: the review flags for its admins only. */
export type CompanyRecord = Omit<RecordOf<typeof companyWire>, 'androidReview' | 'iosReview' | 'initialDemo'> &
  Partial<RecordOf<typeof companyWire>>;

function slugify(s: string): string {
  const slug = s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/, '');
  return slug || 'company';
}

/** Creates a company with its tool switches; the namespace is derived from shortName and made unique. */
export async function createCompany(
  db: Kysely<DB>,
  input: { shortName: string; appIcon?: string },
  now: number,
): Promise<{ companyID: number; onboardingToken: string }> {
  const base = slugify(input.shortName);
  const taken = await db
    .selectFrom('company')
    .select('namespace')
    .where((w) => w.or([w('namespace', '=', base), w('namespace', 'like', `${base}-%`)]))
    .execute();
  const used = new Set(taken.map((r) => r.namespace));
  let namespace = base;
  for (let i = 2; used.has(namespace); i++) namespace = `${base}-${i}`;

  const onboardingToken = newToken();
  const { companyID } = await db
    .insertInto('company')
    .values({
      namespace,
      shortName: input.shortName,
      storeTitle: input.shortName,
      appIcon: input.appIcon ?? '',
      onboardingTokenHash: hashToken(onboardingToken),
      onboardingExpiresAt: now + ONBOARDING_TTL_SECONDS,
      dateCreated: now,
    })
    .returning('companyID')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('companyTool')
    .values({ companyID, schedule: 1, speaker: 1, sponsors: 1, confirmationEmail: 1 })
    .execute();
  return { companyID, onboardingToken };
}

export async function companyByOnboardingToken(db: Kysely<DB>, token: string, now: number) {
  return db
    .selectFrom('company')
    .select('companyID')
    .where('onboardingTokenHash', '=', hashToken(token))
    .where('onboardingExpiresAt', '>', now)
    .executeTakeFirst();
}

export function getCompany(db: Kysely<DB>, by: { companyID?: number; namespace?: string }, admin: boolean) {
  let q = db.selectFrom('company').select(admin ? COMPANY_ADMIN_FIELDS : COMPANY_FIELDS);
  if (by.companyID !== undefined) q = q.where('companyID', '=', by.companyID);
  if (by.namespace !== undefined) q = q.where('namespace', '=', by.namespace.toLowerCase());
  return q.executeTakeFirst();
}

/**
 * Company admins as the spec's Company admin record: personID, level, and the name and e-mail the
 * company gave when it added them (its own view, not the person's other companies').
 */
export function companyPeople(db: Kysely<DB>, companyID: number) {
  return db
    .selectFrom('companyPerson')
    .select(['companyPerson.personID', 'companyPerson.name', 'companyPerson.email', 'companyPerson.level'])
    .where('companyPerson.companyID', '=', companyID);
}

export async function countAdmins(db: Kysely<DB>, companyID: number): Promise<number> {
  const row = await db
    .selectFrom('companyPerson')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('companyID', '=', companyID)
    .where('level', '=', 4)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The company's tool switches (spec §4.3), or undefined for no such company. */
export const companyTools = (db: Kysely<DB>, companyID: number) =>
  db.selectFrom('companyTool').selectAll().where('companyID', '=', companyID).executeTakeFirst();

/** Whether another company already has this namespace (its public address). */
export async function namespaceTaken(db: Kysely<DB>, namespace: string, companyID: number): Promise<boolean> {
  const taken = await db
    .selectFrom('company')
    .select('companyID')
    .where('namespace', '=', namespace)
    .executeTakeFirst();
  return taken !== undefined && taken.companyID !== companyID;
}

/** The tool switches a company has (spec §4.3 company.tool.*), as stored. */
export { TOOL_SWITCHES } from '../../db/schema.ts';
