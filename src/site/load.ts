// What every event page needs before it renders: the company and the event (by the path's namespace
// and nickname), whether the visitor may see it (a private event without a working grant shows the
// access-code page), the language, the links (with or without the /{company}/{event} prefix, on the
// platform's host or the event's custom domain) and the canonical addresses.

import { isNotFound, isPodiumError, type Company, type PodiumEvent } from '../client/index.ts';
import { pickLocale, type Locale } from '../shared/i18n/messages.ts';
import { safeTimeZone } from '../shared/schedule/time.ts';
import type { RequestContext } from './context.ts';
import { GRANT_COOKIE, grantInfo, usableGrant } from './grant.ts';

/** Addresses of an event's pages as the visitor's host serves them. */
export interface EventLinks {
  /** '' on the event's custom domain, else /{company}/{event}. */
  base: string;
  home: string;
  schedule: string;
  speakers: string;
  sponsors: string;
  access: string;
  /** The embed configurator of the event's widgets. */
  embed: string;
  /** The attendee's own registration ("My registration", its link form, sign-out). */
  me: string;
  ics: string;
  /** The program for conference apps: frab XML and JSON. */
  scheduleXml: string;
  scheduleJson: string;
  activity: (id: number | string) => string;
  activityIcs: (id: number | string) => string;
  speaker: (id: number | string) => string;
  /** The company directory (absolute on a custom domain: it lives on the platform's host). */
  directory: string;
  /** Absolute canonical address of an event path ('' = the event's home). */
  canonical: (path: string) => string;
}

export function eventLinks(ctx: RequestContext, company: string, event: PodiumEvent): EventLinks {
  const onCname = ctx.site.kind === 'event';
  const base = onCname ? '' : `/${encodeURIComponent(company)}/${encodeURIComponent(event.nickname)}`;
  const p = (path: string) => `${base}${path}` || '/';
  const cname = event.cname.trim();
  const canonicalBase = cname
    ? `https://${cname}`
    : `${ctx.runtime.siteUrl}/${encodeURIComponent(company)}/${encodeURIComponent(event.nickname)}`;
  return {
    base,
    home: p(''),
    schedule: p('/schedule'),
    speakers: p('/speakers'),
    sponsors: p('/sponsors'),
    access: p('/access'),
    embed: p('/embed'),
    me: p('/me'),
    ics: p('/schedule.ics'),
    scheduleXml: p('/schedule.xml'),
    scheduleJson: p('/schedule.json'),
    activity: (id) => p(`/schedule/${id}`),
    activityIcs: (id) => p(`/schedule/${id}.ics`),
    speaker: (id) => p(`/speakers/${id}`),
    directory: onCname ? `${ctx.runtime.siteUrl}/${encodeURIComponent(company)}` : `/${encodeURIComponent(company)}`,
    canonical: (path) => (cname ? `${canonicalBase}${path || '/'}` : `${canonicalBase}${path}`),
  };
}

export type EventLoad =
  | { kind: 'notFound'; company?: Company; locale: Locale }
  | {
      kind: 'gate';
      company: Company;
      event: PodiumEvent;
      links: EventLinks;
      locale: Locale;
      /** The visitor had a grant the platform refused (expired, or the code changed). */
      expired: boolean;
    }
  | {
      kind: 'ok';
      company: Company;
      event: PodiumEvent;
      links: EventLinks;
      locale: Locale;
      timeZone: string;
      /** The grant the platform reads of a private event need (undefined for a public event). */
      grant: string | undefined;
      isPrivate: boolean;
      /** A hidden event shown through its admins' preview link (event.preview): private, and says so. */
      preview?: boolean;
    };

export function localeFor(ctx: RequestContext, language?: string): Locale {
  return pickLocale([ctx.chosenLocale, language || undefined, ctx.acceptLocale]);
}

/** Loads the company and event of /{company}/{event}; never throws for a missing one (notFound). */
export async function loadEvent(ctx: RequestContext, namespace: string, nickname: string): Promise<EventLoad> {
  const { client } = ctx.runtime;
  const cookieGrant = ctx.cookies.get(GRANT_COOKIE);
  const missing = (err: unknown) => isNotFound(err) || (isPodiumError(err) && err.status === 400);
  const [c, e] = await Promise.allSettled([
    client.companyGet({ namespace }, ctx.call),
    client.eventGet({ namespace, nickname }, undefined, ctx.call),
  ]);
  if (c.status === 'rejected' && !missing(c.reason)) throw c.reason;
  if (e.status === 'rejected' && !missing(e.reason)) throw e.reason;
  const company = c.status === 'fulfilled' ? c.value : undefined;
  if (!company) return { kind: 'notFound', locale: localeFor(ctx) };
  // What the page shows changes with this company's changes only (the page cache's scope).
  ctx.call.companyID = Number(company.companyID);
  // A hidden event is missing to everyone but its admins' preview (event.preview's grant in the cookie).
  const preview = e.status === 'rejected';
  const event = e.status === 'fulfilled' ? e.value : await previewOf(ctx, namespace, nickname, cookieGrant);
  if (!event) return { kind: 'notFound', company, locale: localeFor(ctx, company.language) };
  if (event.companyID !== company.companyID) return { kind: 'notFound', company, locale: localeFor(ctx) };
  const locale = localeFor(ctx, event.language);
  const links = eventLinks(ctx, company.namespace, event);
  if (preview) {
    const timeZone = safeTimeZone(event.timezone);
    return { kind: 'ok', company, event, links, locale, timeZone, grant: cookieGrant, isPrivate: true, preview: true };
  }
  const isPrivate = event.public !== '1';
  if (!isPrivate) {
    ctx.cacheable = true;
    return {
      kind: 'ok',
      company,
      event,
      links,
      locale,
      timeZone: safeTimeZone(event.timezone),
      grant: undefined,
      isPrivate,
    };
  }
  const grant = usableGrant(cookieGrant, Number(event.eventID), ctx.runtime.now() / 1000);
  if (!grant) return { kind: 'gate', company, event, links, locale, expired: cookieGrant !== undefined };
  // The gate shape of event.get: ask again with the grant, in case the platform shows more to it.
  const full = await client.eventGet({ eventID: Number(event.eventID) }, grant, ctx.call).catch(() => event);
  return {
    kind: 'ok',
    company,
    event: { ...event, ...Object.fromEntries(Object.entries(full).filter(([, v]) => v !== '')) },
    links,
    locale,
    timeZone: safeTimeZone(event.timezone),
    grant,
    isPrivate,
  };
}

/** The hidden event as the cookie's preview grant shows it; undefined without one, or when it opens nothing. */
async function previewOf(
  ctx: RequestContext,
  namespace: string,
  nickname: string,
  grant: string | undefined,
): Promise<PodiumEvent | undefined> {
  const info = grantInfo(grant);
  if (!info || info.expires <= ctx.runtime.now() / 1000) return undefined;
  return ctx.runtime.client.eventGet({ namespace, nickname }, grant, ctx.call).catch((err: unknown) => {
    if (isNotFound(err) || (isPodiumError(err) && err.status === 400)) return undefined;
    throw err;
  });
}
