import { qOpt } from '../../../kernel/table.ts';
import { text } from '../../../schemas.ts';
import { SPONSOR } from '../repository.ts';
import { crudOperations } from '../../../kernel/crud.ts';

/**
 * Podium extension (the spec lists the Sponsor fields, §2.5, not its root operations): the sponsors
 * of an event, by tier (tierRank 1 first, 0 last), then position, then name. Public reads like the
 * rest of the site's content; only the event's admins see `telephone` and `email`.
 */
export const sponsorOperations = crudOperations(SPONSOR, {
  module: 'sponsor',
  summaries: {
    create: 'Adds a sponsor to an event.',
    find: 'Lists the sponsors of an event (public for readable events).',
    get: 'Reads one sponsor (public for readable events).',
    remove: 'Removes a sponsor from its event.',
  },
  edit: { max: 50000, description: 'new value; empty clears (not name)' },
  find: {
    text: ['name', 'companyName'],
    equal: { category: qOpt(text(100), 'category equals'), tier: qOpt(text(60), 'tier equals') },
  },
});
