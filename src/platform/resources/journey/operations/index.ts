import { defineOperation, pageOf, pageParams, q, type AnyOperation } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { journeyWire } from '../../../../shared/wire/journey.ts';
import { journeyPage, knownToCompany } from '../repository.ts';

/** Spec §4.3: one person's history across the company's events (company admins). */
const companyPersonJourney = defineOperation({
  name: 'company.person.journey',
  summary:
    "Lists one person's journey across the company's events (company admins), oldest first: registrations, applications, sessions enrolled, check-ins, e-mails sent and comments.",
  methods: ['GET'],
  params: {
    companyID: q(id, 'the company'),
    personID: q(id, "the person (registered or applied to one of the company's events)"),
    ...pageParams,
  },
  auth: { kind: 'company', role: 'admin' },
  writes: false,
  answer: journeyWire,
  async handler(ctx, p) {
    // A person who never came to the company's events reads as one that does not exist.
    if (!(await knownToCompany(ctx.db, p.companyID, p.personID))) throw notFound('person');
    return journeyPage(ctx.db, p.companyID, p.personID, pageOf(p));
  },
});

/** The journey (issue 16, docs/api/journey.md). */
export const journeyOperations: readonly AnyOperation[] = [companyPersonJourney];
