// Which committed writes change what a custom domain serves: an event's cname (the domain itself), its
// nickname and visibility (what the site routes the domain to, whether it is shown at all), a company's
// namespace (part of that route). The public site remembers domain lookups for a while; a listener told
// of these changes (the site in the same process, `podium start`) forgets them at once.

import type { Committed } from './kernel/dispatch.ts';

/** One change to forget: the event (or every event of the company) and the event's domain now. */
export interface DomainChange {
  eventID?: number;
  companyID?: number;
  /** The event's custom domain after the change ('' when it has none). */
  cname?: string;
}

const EVENT_KEYS = new Set(['cname', 'nickname', 'visible']);

const firstRow = (c: Committed) => (Array.isArray(c.result) ? c.result : c.result.rows)[0];

/** The domain change a committed write makes, if any. */
export function domainChangeOf(c: Committed): DomainChange | undefined {
  const key = c.params.key;
  if (c.name === 'event.edit' && typeof key === 'string' && EVENT_KEYS.has(key)) {
    const row = firstRow(c);
    const cname = typeof row?.cname === 'string' ? row.cname : undefined;
    return { eventID: Number(c.params.eventID), ...(cname !== undefined ? { cname } : {}) };
  }
  if (c.name === 'company.edit' && key === 'namespace') {
    const companyID = Number(firstRow(c)?.companyID ?? c.params.companyID);
    return Number.isInteger(companyID) ? { companyID } : undefined;
  }
  return undefined;
}
