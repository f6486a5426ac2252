import { z } from 'zod';
import { defineOperation, editParams, qOpt } from '../../../kernel/table.ts';
import { bit, id, slug, text, url } from '../../../schemas.ts';
import { conflict, notFound } from '../../../errors.ts';
import { editKey, keyList, parseEdit, type EditKey } from '../../../edit.ts';
import { requireCaller, requireCompany } from '../../../auth/access.ts';
import { companyByOnboardingToken, getCompany } from '../repository.ts';
import { sanitizeOrganizerHtml } from '../../html.ts';
import { updateRow } from '../../rows.ts';
import { namespaceTaken } from '../repository.ts';

const color = z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'must be a color such as #1a2b3c');
const image = editKey(url, { clear: '' });
const plain = editKey(text(1000), { clear: '' });

/** Keys an onboarding token may edit (spec §2.6). */
const ONBOARDING_KEYS: Record<string, EditKey> = {
  shortName: editKey(text(120)),
  storeTitle: plain,
  appIcon: image,
  storeIcon: image,
  keywords: plain,
  backgroundColor: editKey(color, { clear: '' }),
  navigationBarBackgroundColor: editKey(color, { clear: '' }),
  mainColor: editKey(color, { clear: '' }),
  splash: image,
};

/** Keys a company admin may edit (spec §2.6), plus Podium's namespace and currency. */
const ADMIN_KEYS: Record<string, EditKey> = {
  ...ONBOARDING_KEYS,
  location: plain,
  cover: image,
  androidBundle: plain,
  iosBundle: plain,
  agreement: editKey(text(20000).transform(sanitizeOrganizerHtml), { clear: '' }),
  language: editKey(z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be an ISO 639-1 code such as en or pt-BR')),
  androidReview: editKey(bit),
  iosReview: editKey(bit),
  initialDemo: editKey(bit),
  namespace: editKey(slug.transform((v) => v.toLowerCase())),
  currency: editKey(z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR')),
};

export default defineOperation({
  name: 'company.edit',
  summary: `Edits one company field. Admin keys: ${keyList(ADMIN_KEYS)}. Onboarding-token keys: ${keyList(ONBOARDING_KEYS)}.`,
  methods: ['POST'],
  params: {
    companyID: qOpt(id, 'the company (with tokenID)'),
    onboardingToken: qOpt(text(200), 'onboarding token from company.create (instead of tokenID + companyID)'),
    ...editParams(20000),
  },
  variants: [['companyID'], ['onboardingToken']],
  auth: { kind: 'public' },
  writes: true,
  async handler(ctx, p) {
    let companyID: number;
    let keys: Record<string, EditKey>;
    if (p.companyID !== undefined) {
      requireCaller(ctx);
      await requireCompany(ctx, p.companyID, 'admin');
      companyID = p.companyID;
      keys = ADMIN_KEYS;
    } else {
      const found = await companyByOnboardingToken(ctx.db, p.onboardingToken!, ctx.now);
      if (!found) throw notFound('onboarding token');
      companyID = found.companyID;
      keys = ONBOARDING_KEYS;
    }
    const { column, value } = parseEdit(keys, p.key, p.value);
    if (column === 'namespace') {
      if (await namespaceTaken(ctx.db, value as string, companyID))
        throw conflict('namespace is already used by another company');
    }
    await updateRow(ctx.db, 'company', 'companyID', companyID, { [column]: value });
    return [(await getCompany(ctx.db, { companyID }, keys === ADMIN_KEYS))!];
  },
});
