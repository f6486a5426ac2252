import { ANY_LEVEL } from '../../../kernel/table.ts';
import { CHAIN } from '../repository.ts';
import { crudOperations } from '../../../kernel/crud.ts';

/**
 * Spec §4.7: chains group activities of one event and limit how many of them one person may join.
 * Anyone with a level in the event reads them; removing a chain unlinks its activities (they stay).
 */
export const chainOperations = crudOperations(CHAIN, {
  module: 'chain',
  summaries: {
    create: 'Creates a chain of activities, limiting how many of them one person may join.',
    find: 'Lists the chains of an event with their activities.',
    remove: 'Removes a chain (its activities stay, unchained).',
  },
  spec: ['create', 'find', 'remove'],
  methods: { remove: ['GET', 'POST'] },
  readLevels: ANY_LEVEL,
});
