// One page of a list (spec §8): what repositories take to read `limit` rows from `offset`, and count
// the whole list only when the caller asked for `paginated=1`. Operations turn the request's
// parameters into a Page with the kernel's pageOf.

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

export type Page = { limit: number; offset: number; paginated: boolean };

/** What a paged read answers: the rows, and the total only when the page asked for it. */
export type Paged<R> = R[] | { rows: R[]; total: number };
