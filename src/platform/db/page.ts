import type { Kysely, SelectQueryBuilder } from 'kysely';

// One page of a list (spec §8): what repositories take to read `limit` rows from `offset`, and count
// the whole list only when the caller asked for `paginated=1`. Operations turn the request's
// parameters into a Page with the kernel's pageOf.

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

export type Page = { limit: number; offset: number; paginated: boolean };

/** What a paged read answers: the rows, and the total only when the page asked for it. */
export type Paged<R> = R[] | { rows: R[]; total: number };

/**
 * Reads one page of an ordered query (its order must end with a unique column, so pages never
 * overlap), and its total when the page asks: the same query counted, so the two cannot disagree.
 * `shape` turns the page's rows into records (e.g. adds each activity's speakers).
 */
export async function readPage<O, R = O>(
  db: Kysely<any>,
  query: SelectQueryBuilder<any, any, O>,
  page: Page,
  shape: (rows: O[]) => R[] | Promise<R[]> = (rows) => rows as unknown as R[],
): Promise<Paged<R>> {
  const rows = await shape(await query.limit(page.limit).offset(page.offset).execute());
  if (!page.paginated) return rows;
  const { n } = await db
    .selectFrom(query.clearOrderBy().as('whole'))
    .select((e) => e.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}
