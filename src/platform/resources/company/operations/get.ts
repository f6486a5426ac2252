import { defineOperation, qOpt } from '../../../kernel/table.ts';
import { id, text } from '../../../schemas.ts';
import { notFound } from '../../../errors.ts';
import { companyLevelOf } from '../../../auth/access.ts';
import { companyByOnboardingToken, getCompany } from '../repository.ts';

/**
 * Spec §4.3, all forms in one declaration: companyID or namespace, with or without tokenID, or an
 * onboardingToken. Company admins (and the onboarding token) also see the store-review flags.
 */
export default defineOperation({
  name: 'company.get',
  summary: 'Reads one company by companyID, namespace or onboarding token.',
  methods: ['GET'],
  params: {
    companyID: qOpt(id, 'the company'),
    namespace: qOpt(text(64), 'the company nickname used in public URLs'),
    onboardingToken: qOpt(text(200), 'onboarding token from company.create'),
  },
  variants: [['companyID'], ['namespace'], ['onboardingToken']],
  auth: { kind: 'public' },
  cachePublic: true,
  writes: false,
  async handler(ctx, p) {
    let by: { companyID?: number; namespace?: string } = { companyID: p.companyID, namespace: p.namespace };
    let admin = false;
    if (p.onboardingToken !== undefined) {
      const found = await companyByOnboardingToken(ctx.db, p.onboardingToken, ctx.now);
      if (!found) throw notFound('company');
      by = found;
      admin = true;
    }
    const company = await getCompany(ctx.db, by, true);
    if (!company) throw notFound('company');
    if (!admin && ctx.caller) admin = (await companyLevelOf(ctx.db, ctx.caller, company.companyID)) === 4;
    if (!admin) {
      const { androidReview: _a, iosReview: _i, initialDemo: _d, ...open } = company;
      return [open];
    }
    return [company];
  },
});
