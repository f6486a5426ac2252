// Reading a whole paginated list (spec §8: at most 100 rows a page) in as few round trips as the
// platform allows: the first page asks for the total (`paginated=1`), then every other page is asked
// for at once. Shared by the site's client and the widgets, which both show whole programs.

/** The most rows the platform answers in one page (spec §8). */
export const PAGE_SIZE_MAX = 100;

/** One page as read: its rows, and the total of the whole list when it was asked for. */
export interface PageRead<T> {
  readonly rows: T[];
  readonly total?: number;
}

/**
 * Every page of a list, in order. `read(offset, first)` reads the page at `offset` (limit
 * PAGE_SIZE_MAX), asking for the total when `first`. At most `maxPages` pages: a bound on what one
 * page view may ask of the platform, whatever total it is told.
 */
export async function readPages<T>(
  read: (offset: number, first: boolean) => Promise<PageRead<T>>,
  maxPages = 50,
): Promise<T[][]> {
  const first = await read(0, true);
  if (first.total === undefined) {
    // A platform that does not tell the total: page on until a page comes back short.
    const pages = [first.rows];
    while (pages.length < maxPages && pages[pages.length - 1].length === PAGE_SIZE_MAX)
      pages.push((await read(pages.length * PAGE_SIZE_MAX, false)).rows);
    return pages;
  }
  const count = Math.min(maxPages, Math.ceil(first.total / PAGE_SIZE_MAX));
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, count - 1) }, (_, i) => read((i + 1) * PAGE_SIZE_MAX, false)),
  );
  return [first.rows, ...rest.map((p) => p.rows)];
}
