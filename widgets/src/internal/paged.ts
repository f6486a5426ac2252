// Whole paginated lists (the agenda's program), apart from api.ts: only the widgets that read one
// download the paging code (src/shared/paging.ts), not every widget through the chunk they share.

import { PAGE_SIZE_MAX, readPages } from '../../../src/shared/paging.ts';
import { callPage, type Params, type Row } from './api.ts';

/** Every row of a paginated list operation: the first page with its total, the others at once. */
export async function callAll(api: string, name: string, query: Params): Promise<Row[]> {
  const pages = await readPages((offset, first) =>
    callPage(api, name, { ...query, limit: PAGE_SIZE_MAX, offset, paginated: first ? 1 : undefined }),
  );
  return pages.flat();
}
