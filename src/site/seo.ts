// schema.org JSON-LD (the event's summary on its home, the whole program on its schedule page, a
// session, the organizer and the venue), sitemaps and robots.txt. Private events never reach these (the pages leave them out).

import { LRUCache } from 'lru-cache';
import type { Company, PodiumEvent } from '../client/index.ts';
import type { Session } from '../shared/schedule/program.ts';
import { plainText, safeHttpUrl, jsonForScript, escapeHtml } from './html.ts';
import { isoInZone, type ProgramView } from './program.ts';
import { loadEvent, type EventLinks } from './load.ts';
import { keptText } from '../net/bytes.ts';
import type { RequestContext } from './context.ts';

type Json = Record<string, unknown>;

function place(event: PodiumEvent): Json | undefined {
  if (event.presential === '0') return { '@type': 'VirtualLocation', url: event.website || undefined };
  const address = {
    '@type': 'PostalAddress',
    streetAddress: event.address || undefined,
    addressLocality: event.city || undefined,
    addressRegion: event.state || undefined,
  };
  const lat = Number(event.latitude);
  const lon = Number(event.longitude);
  const geo =
    event.latitude !== '' && event.longitude !== '' && Number.isFinite(lat) && Number.isFinite(lon)
      ? { '@type': 'GeoCoordinates', latitude: lat, longitude: lon }
      : undefined;
  if (!event.placeName && !event.address && !event.city && !geo) return undefined;
  return { '@type': 'Place', name: event.placeName || event.address || event.city, address, geo };
}

function person(p: { name: string; headline?: string; image?: string }, url?: string): Json {
  return {
    '@type': 'Person',
    name: p.name,
    jobTitle: p.headline || undefined,
    image: safeHttpUrl(p.image ?? '') || undefined,
    url,
  };
}

export function organizer(company: Company, event: PodiumEvent | undefined, url: string): Json {
  return {
    '@type': 'Organization',
    name: event?.fugleman || company.storeTitle || company.shortName,
    url,
    logo: safeHttpUrl(company.appIcon) || undefined,
  };
}

export function sessionJson(s: Session, timeZone: string, url: string, venue: Json | undefined, brief = false): Json {
  return {
    '@type': 'Event',
    name: s.name,
    description: brief ? undefined : plainText(s.description) || undefined,
    startDate: isoInZone(s.dateBegin, timeZone),
    endDate: isoInZone(s.dateEnd, timeZone),
    url,
    location: s.location ? { '@type': 'Place', name: s.location, containedInPlace: venue } : venue,
    // In the event's subEvent list the speakers are the event's performers already.
    performer: s.speakers.length > 0 && !brief ? s.speakers.map((p) => person(p)) : undefined,
  };
}

interface EventJsonInput {
  event: PodiumEvent;
  company: Company;
  links: EventLinks;
  program: ProgramView | undefined;
  timeZone: string;
  /** Where visitors register (the home's registration section), for `offers`; none without one. */
  registerUrl?: string;
}

/**
 * `summary` (the event's home): the event, its place, organizer and offers, and at most
 * HIGHLIGHTS highlighted sessions. `program` (the schedule page): every session as a subEvent with its
 * speakers. The program is most of the bytes (44 KB of a 57 KB home page for 120 sessions): a search
 * engine finds it on the schedule page, and phones opening the home page do not download it.
 */
export type EventJsonKind = 'summary' | 'program';

/** Highlighted sessions the summary names, at most. */
export const HIGHLIGHTS = 3;

const eventJsonMemo = new LRUCache<string, { input: EventJsonInput; json: Buffer }>({ max: 500 });

/**
 * The event's JSON-LD of one kind. Remembered while the platform's answers are the same objects (the
 * client reuses them while their bytes do not change). As UTF-8 bytes: the page places them with
 * fragmentMarker (fragments.ts).
 */
export function eventJsonLd(input: EventJsonInput, kind: EventJsonKind): Buffer {
  const key = `${kind}|${input.links.canonical('')}|${input.timeZone}|${input.registerUrl ?? ''}`;
  const known = eventJsonMemo.get(key);
  const same =
    known &&
    known.input.event === input.event &&
    known.input.company === input.company &&
    known.input.program === input.program;
  if (same) return known.json;
  const json = keptText(buildEventJsonLd(input, kind));
  eventJsonMemo.set(key, { input, json });
  return json;
}

function buildEventJsonLd(o: EventJsonInput, kind: EventJsonKind): string {
  const { event, company, links, program, timeZone } = o;
  const venue = place(event);
  const sessions = (kind === 'program' ? program?.sessions : program?.sessions.filter((s) => s.highlight))?.slice(
    0,
    kind === 'program' ? undefined : HIGHLIGHTS,
  );
  // Each session: name, times, room (in the event's venue, said once above), speakers' names, page —
  // the fewest bytes that still make a program; the session's page has the rest.
  const subEvents = sessions?.map((s) => ({
    ...sessionJson(s, timeZone, links.canonical(`/schedule/${s.activityID}`), undefined, true),
    performer: s.speakers.length > 0 ? s.speakers.map((p) => ({ '@type': 'Person', name: p.name })) : undefined,
  }));
  const begin = Number(event.dateBegin);
  const end = Number(event.dateEnd);
  return jsonForScript({
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.name,
    description: plainText(event.description, 300) || undefined,
    url: links.canonical(''),
    startDate: begin > 0 ? isoInZone(begin, timeZone) : undefined,
    endDate: end > 0 ? isoInZone(end, timeZone) : undefined,
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode:
      event.presential === '0'
        ? 'https://schema.org/OnlineEventAttendanceMode'
        : 'https://schema.org/OfflineEventAttendanceMode',
    image: safeHttpUrl(event.cover) ? [safeHttpUrl(event.cover)] : undefined,
    location: venue,
    organizer: organizer(company, event, links.directory.startsWith('http') ? links.directory : links.canonical('')),
    offers: o.registerUrl ? { '@type': 'Offer', url: o.registerUrl } : undefined,
    subEvent: subEvents && subEvents.length > 0 ? subEvents : undefined,
  });
}

/** One session's page: the session, part of its event (superEvent). */
export function sessionJsonLd(o: {
  session: Session;
  event: PodiumEvent;
  company: Company;
  links: EventLinks;
  timeZone: string;
}): string {
  const { session, event, links, timeZone } = o;
  const venue = place(event);
  return jsonForScript({
    '@context': 'https://schema.org',
    ...sessionJson(session, timeZone, links.canonical(`/schedule/${session.activityID}`), venue),
    superEvent: { '@type': 'Event', name: event.name, url: links.canonical('') },
    organizer: organizer(o.company, event, links.canonical('')),
  });
}

/** A sitemap of absolute URLs. */
export function sitemapXml(urls: { loc: string; lastmod?: string }[]): string {
  const items = urls
    .map(
      (u) =>
        `<url><loc>${escapeHtml(u.loc)}</loc>${u.lastmod ? `<lastmod>${escapeHtml(u.lastmod)}</lastmod>` : ''}</url>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</urlset>\n`;
}

export function robotsTxt(sitemaps: string[]): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /_podium/', ...sitemaps.map((s) => `Sitemap: ${s}`), ''].join('\n');
}

/** The addresses of a public event's pages, for its sitemap (private events: none). */
export async function eventSitemap(
  ctx: RequestContext,
  namespace: string,
  nickname: string,
): Promise<{ loc: string }[]> {
  const load = await loadEvent(ctx, namespace, nickname);
  if (load.kind !== 'ok' || load.isPrivate) return [];
  const { client } = ctx.runtime;
  const id = Number(load.event.eventID);
  const [activities, speakers] = await Promise.all([
    client.activityFind(id, undefined, ctx.call),
    client.speakerFind(id, undefined, ctx.call),
  ]);
  const c = load.links.canonical;
  return [
    { loc: c('') },
    { loc: c('/schedule') },
    { loc: c('/speakers') },
    { loc: c('/sponsors') },
    ...activities.map((a) => ({ loc: c(`/schedule/${a.activityID}`) })),
    ...speakers.map((s) => ({ loc: c(`/speakers/${s.speakerID}`) })),
  ];
}
