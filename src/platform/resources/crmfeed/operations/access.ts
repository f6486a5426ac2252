import { ApiError, conflict } from '../../../errors.ts';
import type { Context } from '../../../kernel/table.ts';
import { CrmError, crmProviderOf, type CrmProvider } from '../provider.ts';
import { linkOf, type CrmLinkRow } from '../repository.ts';
import { openToken } from '../secret.ts';

// What every crmfeed operation needs: the configured provider, the event's link, the sealing key, and a
// provider's failure as the `502` line that names it (never a 500).

/** The provider CRM_URL names; `409 no CRM connected` without one (nothing could have been linked). */
export function providerOf(ctx: Context): CrmProvider {
  const provider = crmProviderOf(ctx.config);
  if (!provider) throw conflict('no CRM connected: the platform has no CRM provider (CRM_URL)');
  return provider;
}

/** How answers name the provider ('' when none is configured any more). */
export const providerName = (ctx: Context): string => crmProviderOf(ctx.config)?.name ?? '';

/** The event's link; `409 no CRM connected to this event` without one. */
export async function requireLink(ctx: Context, eventID: number): Promise<CrmLinkRow> {
  const link = await linkOf(ctx.db, eventID);
  if (!link) throw conflict('no CRM connected to this event');
  return link;
}

/** The key that seals tokens (docs/api/crmfeed.md "Tokens"). */
export function secretKey(ctx: Context): Buffer {
  const key = ctx.config.WEBHOOK_SECRET_KEY;
  if (!key) throw new ApiError(503, 'crmfeed needs WEBHOOK_SECRET_KEY in the platform environment');
  return key;
}

/** The event's token in clear, for one request to the provider. */
export function tokenOf(ctx: Context, link: CrmLinkRow): string {
  const key = secretKey(ctx);
  try {
    return openToken(key, link.token);
  } catch {
    // Sealed under another key (WEBHOOK_SECRET_KEY was changed): only a new link helps.
    throw conflict("the event's CRM token was sealed with another key: link the event again (crmfeed.link)");
  }
}

/** Runs a request to the provider: its failure is a `502` line naming it. */
export async function ask<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (err instanceof CrmError) throw new ApiError(502, err.message);
    throw err;
  }
}
