import { z } from 'zod';
import { b, bOpt, defineOperation, q, LEVEL } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { relationName } from '../../relation/common.ts';
import { chainByID, createChain } from '../repository.ts';

export const CONSTRAINT_MAX = 1000;

/** The chain's constraint: how many of its activities one person may be enrolled in. */
export const constraintSchema = z
  .string()
  .regex(/^\d{1,4}$/, `must be an integer from 1 to ${CONSTRAINT_MAX}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= CONSTRAINT_MAX, `must be an integer from 1 to ${CONSTRAINT_MAX}`);

/**
 * Spec §4.7. A chain groups activities of one event; its `constraint` (Podium's design of the spec's
 * "optional constraint rule") is how many of them one person may be enrolled in, default 1 (spec
 * §4.5: "a user cannot register in more than one activity of the same chain").
 */
export default defineOperation({
  name: 'chain.create',
  summary: 'Creates a chain of activities, limiting how many of them one person may join.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    name: b(relationName, 'chain name'),
    constraint: bOpt(
      constraintSchema,
      `activities of the chain one person may be enrolled in (1 to ${CONSTRAINT_MAX}, default 1)`,
    ),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  async handler(ctx, p) {
    return chainByID(ctx.db, await createChain(ctx.db, p.eventID, p.name, p.constraint ?? 1));
  },
});
