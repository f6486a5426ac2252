import type { AnyOperation } from '../kernel/table.ts';
import { chatOperations } from '../resources/chat/operations/index.ts';
import { commentOperations } from '../resources/comment/operations/index.ts';
import { errorOperations } from '../resources/error/operations/index.ts';
import { searchOperations } from '../resources/search/operations/index.ts';

/** Chat, comments, error reports and the event search (issue 16): docs/api/chat.md, comments.md, errors.md, search.md. */
export const socialOperations: readonly AnyOperation[] = [
  ...chatOperations,
  ...commentOperations,
  ...errorOperations,
  ...searchOperations,
];
