import { defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { chainByID, removeChain } from '../repository.ts';

/** Spec §4.7. Removes a chain and its links to activities (the activities stay); answers the chain as it was. */
export default defineOperation({
  name: 'chain.remove',
  summary: 'Removes a chain (its activities stay, unchained).',
  methods: ['GET', 'POST'],
  params: { chainID: q(id, 'the chain') },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['chainID'] },
  writes: true,
  async handler(ctx, p) {
    const record = await chainByID(ctx.db, p.chainID);
    await removeChain(ctx.db, p.chainID);
    return record;
  },
});
