// Small helpers the pages share: the status of an event page, the program's strings, the event's
// date line.

import { isNotFound, isPodiumError } from '../client/index.ts';
import { t, type Locale } from '../shared/i18n/messages.ts';
import { dayKey, formatDate, formatRange } from '../shared/schedule/time.ts';
import type { PodiumEvent } from '../client/index.ts';
import type { AstroGlobal } from 'astro';
import type { RequestContext } from './context.ts';
import { loadEvent, type EventLoad } from './load.ts';
import { programView, type ProgramView, type ProgramStrings } from './program.ts';
import type { Activity } from '../client/index.ts';

/** 404 for an unknown event, 403 for a private event's access-code page. */
export function statusOf(load: EventLoad): number {
  return load.kind === 'notFound' ? 404 : load.kind === 'gate' ? 403 : 200;
}

/** A platform read of a private event was refused (the grant expired or the code changed): show the gate. */
export function toGate(load: EventLoad, err: unknown): EventLoad {
  if (load.kind === 'ok' && isPodiumError(err) && err.status === 403) {
    return {
      kind: 'gate',
      company: load.company,
      event: load.event,
      links: load.links,
      locale: load.locale,
      expired: true,
    };
  }
  throw err;
}

/** The loaded event of an 'ok' load (the other kinds have nothing to read). */
export type OkLoad = Extract<EventLoad, { kind: 'ok' }>;

/**
 * A page's read of the event's data: runs `read` when the event loaded, and turns a refusal of a
 * private event's data into its gate (toGate). With `missingIsEmpty`, an object that is not found
 * leaves the value undefined so the page can answer 404 (a session or speaker page).
 */
export async function readFor<T>(
  load: EventLoad,
  read: (ok: OkLoad) => Promise<T>,
  missingIsEmpty = false,
): Promise<{ load: EventLoad; value: T | undefined }> {
  if (load.kind !== 'ok') return { load, value: undefined };
  try {
    return { load, value: await read(load) };
  } catch (err) {
    if (missingIsEmpty && isNotFound(err)) return { load, value: undefined };
    return { load: toGate(load, err), value: undefined };
  }
}

/** Which of the navigation's optional entries an event has content for. */
export interface NavContent {
  speakers: boolean;
  sponsors: boolean;
}

/**
 * Whether the event has speakers and sponsors, so the navigation leaves out an entry that would lead to
 * an empty page: what the page knows already (`known`, from answers it read itself), else read — the
 * answers the speakers' and sponsors' pages read, kept by the client. Each read costs a cold render a few
 * percent of its CPU (bench/site-ab.mjs), so a page that has the answer passes it. A read that fails
 * keeps its entry: the page it leads to says what went wrong.
 */
export function navContentOf(
  ctx: RequestContext,
  load: OkLoad,
  known: Partial<NavContent>,
): NavContent | Promise<NavContent> {
  const { speakers, sponsors } = known;
  if (speakers !== undefined && sponsors !== undefined) return { speakers, sponsors };
  return readNavContent(ctx, load, known);
}

async function readNavContent(ctx: RequestContext, load: OkLoad, known: Partial<NavContent>): Promise<NavContent> {
  const { client } = ctx.runtime;
  const id = Number(load.event.eventID);
  const [speakers, sponsors] = await Promise.all([
    known.speakers ?? anyOf(client.speakerFind(id, load.grant, ctx.call)),
    known.sponsors ?? anyOf(client.sponsorFind(id, load.grant, ctx.call)),
  ]);
  return { speakers, sponsors };
}

/** Whether a read found any rows; a failed read counts as some (its entry stays). */
const anyOf = (rows: Promise<readonly unknown[]>): Promise<boolean> =>
  rows.then(
    (r) => r.length > 0,
    () => true,
  );

/** What a program tells of the navigation: speakers, when a session has one (else it cannot tell). */
export function navKnownOf(program: ProgramView | undefined): Partial<NavContent> {
  return program?.sessions.some((s) => s.speakers.length > 0) ? { speakers: true } : {};
}

/**
 * An event page's event (the route's company and event) and its one read of the event's data (readFor);
 * the page's status follows the load (statusOf).
 */
export async function readEventPage<T>(
  astro: AstroGlobal,
  read: (ok: OkLoad) => Promise<T>,
  missingIsEmpty = false,
): Promise<{ load: EventLoad; value: T | undefined }> {
  const load = await loadEvent(astro.locals.podium, astro.params.company!, astro.params.event!);
  const result = await readFor(load, read, missingIsEmpty);
  astro.response.status = statusOf(result.load);
  return result;
}

/**
 * A detail page's read (a session, a speaker) of the id in its path: `missing` (and status 404) when the
 * event loaded but the id is not a number or `read` finds nothing of this event.
 */
export async function readItemPage<T>(
  astro: AstroGlobal,
  idText: string,
  read: (ok: OkLoad, id: number) => Promise<T | undefined>,
): Promise<{ load: EventLoad; value: T | undefined; missing: boolean }> {
  const id = /^\d{1,15}$/.test(idText) ? Number(idText) : undefined;
  const result = await readEventPage(astro, async (l) => (id === undefined ? undefined : read(l, id)), true);
  const missing = result.load.kind === 'ok' && result.value === undefined;
  if (missing) astro.response.status = 404;
  return { ...result, missing };
}

/** The program as the event's pages show it: in the event's zone and language, linking each session. */
export function programOf(load: OkLoad, activities: Activity[]): ProgramView {
  return programView(activities, {
    timeZone: load.timeZone,
    locale: load.locale,
    activityHref: (a) => load.links.activity(a),
    strings: programStrings(load.locale),
  });
}

export function programStrings(locale: Locale): ProgramStrings {
  return {
    tracks: t(locale, 'schedule.track'),
    noRoom: t(locale, 'schedule.noRoom'),
    time: t(locale, 'schedule.time'),
    highlight: t(locale, 'schedule.highlight'),
    break: t(locale, 'schedule.break'),
  };
}

const datesMemo = new WeakMap<PodiumEvent, Map<string, string>>();

/** "21 December 2026" or "21 December 2026 – 23 December 2026", in the event's zone ('' without dates). */
export function eventDates(event: PodiumEvent, timeZone: string, locale: Locale): string {
  let byKey = datesMemo.get(event);
  if (!byKey) datesMemo.set(event, (byKey = new Map()));
  const key = `${timeZone}|${locale}`;
  let text = byKey.get(key);
  if (text === undefined) byKey.set(key, (text = formatEventDates(event, timeZone, locale)));
  return text;
}

function formatEventDates(event: PodiumEvent, timeZone: string, locale: Locale): string {
  const begin = Number(event.dateBegin);
  const end = Number(event.dateEnd);
  if (!(begin > 0)) return '';
  const a = formatDate(begin, timeZone, locale);
  if (!(end > begin)) return a;
  if (dayKey(begin, timeZone) === dayKey(end, timeZone)) return `${a}, ${formatRange(begin, end, timeZone, locale)}`;
  return t(locale, 'event.dates', { start: a, end: formatDate(end, timeZone, locale) });
}
