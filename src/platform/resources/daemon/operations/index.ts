import type { AnyOperation } from '../../../kernel/table.ts';
import daemonBulk from './bulk.ts';
import daemonFind from './find.ts';

/** Bulk daemons (issue 17, docs/api/daemons.md). */
export const daemonOperations: readonly AnyOperation[] = [daemonBulk, daemonFind];
