import { bOpt, defineOperation } from '../../../kernel/table.ts';
import { text, url } from '../../../schemas.ts';
import { badRequest } from '../../../errors.ts';
import { createCompany, getCompany } from '../repository.ts';
import { readImport } from '../../imports.ts';

/**
 * Spec §4.3. Creates one company (B shortName, appIcon?) or many from a CSV file (B path) with the
 * columns shortName and appIcon. The answer carries each company's one-time `onboardingToken`.
 */
export default defineOperation({
  name: 'company.create',
  summary: 'Creates a company, or many from a CSV file under the import folder (B path).',
  methods: ['POST'],
  params: {
    shortName: bOpt(text(120), 'company name'),
    appIcon: bOpt(url, 'icon URL'),
    path: bOpt(text(500), 'CSV file (columns shortName, appIcon) inside IMPORT_DIR'),
  },
  variants: [['shortName'], ['path']],
  auth: { kind: 'operator' },
  writes: true,
  async handler(ctx, p) {
    let inputs: { shortName: string; appIcon?: string }[];
    if (p.path !== undefined) {
      inputs = (await readImport(ctx.config.IMPORT_DIR, p.path)).map((r, i) => {
        const shortName = (r.shortName ?? '').trim();
        if (!shortName || shortName.length > 120)
          throw badRequest(`path row ${i + 2}: shortName must be 1 to 120 characters`);
        const appIcon = r.appIcon?.trim() || undefined;
        if (appIcon && !url.safeParse(appIcon).success)
          throw badRequest(`path row ${i + 2}: appIcon must be an http or https URL`);
        return { shortName, appIcon };
      });
    } else {
      const shortName = p.shortName!.trim();
      if (!shortName) throw badRequest('shortName cannot be empty');
      inputs = [{ shortName, appIcon: p.appIcon }];
    }
    const out = [];
    for (const input of inputs) {
      const { companyID, onboardingToken } = await createCompany(ctx.db, input, ctx.now);
      const company = await getCompany(ctx.db, { companyID }, true);
      out.push({ ...company, onboardingToken });
    }
    return out;
  },
});
