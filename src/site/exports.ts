// The schedule's exports for calendars and conference apps (/{company}/{event}/schedule.ics, .xml,
// .json; on an event's own domain /schedule.ics, …): what they all load first, and the frab answers.

import type { PodiumEvent } from '../client/index.ts';
import { parseProgram, type Session } from '../shared/schedule/program.ts';
import { t } from '../shared/i18n/messages.ts';
import type { RequestContext } from './context.ts';
import { loadEvent, type EventLoad } from './load.ts';
import { toFrabJson, toFrabXml } from './frab.ts';

export const plain = (status: number, text: string) =>
  new Response(`${status} ${text}`, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export type ProgramLoad = Extract<EventLoad, { kind: 'ok' }> & { program: Session[] };

/**
 * The event and its whole program, as a visitor may see them; or the one-line answer when they may
 * not (404 unknown event, 403 a private event without the visitor's grant).
 */
export async function loadProgram(
  ctx: RequestContext,
  namespace: string,
  nickname: string,
): Promise<ProgramLoad | Response> {
  const load = await loadEvent(ctx, namespace, nickname);
  if (load.kind === 'notFound') return plain(404, 'event not found');
  if (load.kind === 'gate') return plain(403, 'this event is private: enter its access code on the event page');
  let activities;
  try {
    activities = await ctx.runtime.client.activityFind(Number(load.event.eventID), load.grant, ctx.call);
  } catch (err) {
    if ((err as { status?: number }).status === 403) return plain(403, 'this event is private');
    throw err;
  }
  return { ...load, program: parseProgram(activities) };
}

/** The attachment name of an export: the event's nickname and the extension. */
export const fileName = (event: PodiumEvent, extension: string) =>
  `${event.nickname || 'event'}${extension}`.replace(/[^\w.-]/g, '_');

const FORMATS = {
  xml: { type: 'application/xml; charset=utf-8', body: (o: Parameters<typeof toFrabXml>[0]) => toFrabXml(o) },
  json: {
    type: 'application/json; charset=utf-8',
    body: (o: Parameters<typeof toFrabJson>[0]) => JSON.stringify(toFrabJson(o), null, 1),
  },
} as const;

/** schedule.xml / schedule.json: the whole program in frab's formats, for conference apps. */
export async function frabResponse(
  ctx: RequestContext,
  namespace: string,
  nickname: string,
  format: keyof typeof FORMATS,
): Promise<Response> {
  const loaded = await loadProgram(ctx, namespace, nickname);
  if (loaded instanceof Response) return loaded;
  const { event, links, locale, timeZone, program } = loaded;
  const body = FORMATS[format].body({
    title: event.name,
    nickname: event.nickname,
    description: event.description,
    dateBegin: Number(event.dateBegin) || 0,
    dateEnd: Number(event.dateEnd) || 0,
    timeZone,
    language: event.language || locale,
    sessions: program,
    homeUrl: links.canonical(''),
    scheduleUrl: links.canonical(`/schedule.${format}`),
    sessionUrl: (id) => links.canonical(`/schedule/${id}`),
    speakerUrl: (id) => links.canonical(`/speakers/${id}`),
    noRoom: t(locale, 'schedule.noRoom'),
    now: Math.floor(ctx.runtime.now() / 1000),
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': FORMATS[format].type,
      // Shown inline (apps fetch it; a browser shows it), named for a download.
      'content-disposition': `inline; filename="${fileName(event, `.${format}`)}"`,
      'access-control-allow-origin': '*',
      ...(loaded.isPrivate ? { 'cache-control': 'private, no-store' } : {}),
    },
  });
}
