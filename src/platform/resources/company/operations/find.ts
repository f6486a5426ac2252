import { defineOperation, pageOf, pageParams, q } from '../../../kernel/table.ts';
import { selection } from '../../../schemas.ts';
import { COMPANY_SELECTIONS as SELECTIONS, findCompanies } from '../find.ts';

/**
 * Spec §4.3. Operators see every company; anyone else, the companies they belong to.
 * Selections (meaning not shown in the spec, defined by Podium): live = has a visible, unarchived
 * event that has not ended; androidQueue/iosQueue = waiting for store review; lacksIcon = no app
 * icon; lacksBundle = no Android or no iOS bundle; missingLinks = no Android or no iOS store link;
 * notWhiteLabel = neither bundle set.
 */
export default defineOperation({
  name: 'company.find',
  summary: 'Lists companies by selection (combine with |).',
  methods: ['GET'],
  params: {
    selection: q(selection(SELECTIONS, false), SELECTIONS.join(', ')),
    ...pageParams,
  },
  auth: { kind: 'token' },
  writes: false,
  async handler(ctx, p) {
    const caller = ctx.caller!;
    // An event-scope token is limited to its event and has no company level (spec §5.3,
    // companyLevelOf): it lists no company. It used to list its person's companies with the
    // admin-only fields. personID 0 matches no one.
    const personID = caller.scope === 'system' ? caller.personID : 0;
    const reader = { personID, operator: caller.operator };
    return findCompanies(ctx.db, reader, p.selection.values, ctx.now, pageOf(p));
  },
});
