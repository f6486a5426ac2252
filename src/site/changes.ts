// The program changelog on the site (issue 13): /{company}/{event}/schedule/changes (HTML) and
// /schedule/changes.xml (Atom), from the platform's activity.changes — the newest 100 changes, each
// told in the event's language and time zone. On the event's own domain: /schedule/changes(.xml).

import type { ProgramChange } from '../client/index.ts';
import { t, type MessageKey } from '../shared/i18n/messages.ts';
import { PROGRAM_CHANGE_KINDS, type ProgramChangeKind } from '../shared/wire/program.ts';
import { formatDate, formatRange, formatTime } from '../shared/schedule/time.ts';
import type { RequestContext } from './context.ts';
import type { OkLoad } from './pages.ts';
import { loadEvent } from './load.ts';
import { plain } from './exports.ts';
import { xmlEscape } from './frab.ts';

/** One change as the page and the feed tell it. */
export interface ChangeLine {
  readonly version: string;
  readonly activityID: string;
  /** Unix seconds of the write. */
  readonly date: number;
  readonly when: string;
  /** The session's name (its last one when removed). */
  readonly name: string;
  /** The session's page, '' once removed. */
  readonly href: string;
  readonly removed: boolean;
  /** "Moved", "Room changed", … */
  readonly labels: string[];
  /** What it is now and what it was: "10:30–11:30 (was 10:00–11:00)". */
  readonly details: string[];
}

const isKind = (k: string): k is ProgramChangeKind => (PROGRAM_CHANGE_KINDS as readonly string[]).includes(k);

/** The rows of activity.changes told for `load`'s visitor. */
export function changeLines(load: OkLoad, rows: readonly ProgramChange[]): ChangeLine[] {
  const { locale, timeZone, links } = load;
  const range = (b: string, e: string) => (b ? formatRange(Number(b), Number(e), timeZone, locale) : '');
  const was = (now: string, old: string) =>
    old && old !== now ? `${now} (${t(locale, 'changes.was', { old })})` : now;
  return rows.map((r) => {
    const date = Number(r.date);
    const kinds = r.kinds.split(',').filter(isKind);
    const removed = kinds.includes('removed');
    const details: string[] = [];
    const when = range(r.dateBegin, r.dateEnd);
    const oldWhen = range(r.oldDateBegin, r.oldDateEnd);
    const speakers = (s: string) => s || t(locale, 'changes.noSpeakers');
    if (removed) details.push([oldWhen, r.oldLocation].filter(Boolean).join(' · '));
    else if (kinds.includes('added')) details.push([when, r.location, r.speakers].filter(Boolean).join(' · '));
    else {
      if (kinds.includes('moved')) details.push(was(when, oldWhen));
      if (kinds.includes('room')) details.push(was(r.location, r.oldLocation));
      if (kinds.includes('renamed')) details.push(t(locale, 'changes.was', { old: r.oldName }));
      if (kinds.includes('speakers'))
        details.push(`${speakers(r.speakers)} (${t(locale, 'changes.was', { old: speakers(r.oldSpeakers) })})`);
    }

    return {
      version: r.version,
      activityID: r.activityID,
      date,
      when: `${formatDate(date, timeZone, locale)} ${formatTime(date, timeZone, locale)}`,
      name: removed ? r.oldName : r.name,
      href: removed ? '' : links.activity(r.activityID),
      removed,
      labels: kinds.map((k) => t(locale, `changes.${k}` as MessageKey)),
      details: details.filter(Boolean),
    };
  });
}

/** The newest changes of an event the visitor may read (the platform answers 403 for a private one without a grant). */
export const readChanges = (ctx: RequestContext, load: OkLoad) =>
  ctx.runtime.client.activityChanges(Number(load.event.eventID), load.grant, ctx.call);

const iso = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The Atom feed (RFC 4287): one entry per session changed, newest first. */
export function changesAtom(load: OkLoad, lines: readonly ChangeLine[], now: number): string {
  const { event, company, links, locale } = load;
  const x = xmlEscape;
  const page = links.canonical('/schedule/changes');
  const entries = lines.map((l) => {
    const link = l.href
      ? `\n    <link rel="alternate" type="text/html" href="${x(links.canonical(`/schedule/${l.activityID}`))}"/>`
      : '';
    return `  <entry>
    <id>${x(`${page}#v${l.version}-${l.activityID}`)}</id>
    <title>${x(`${l.labels.join(', ')}: ${l.name}`)}</title>
    <updated>${iso(l.date)}</updated>${link}
    <content type="text">${x([`${t(locale, 'changes.version', { version: l.version })}`, ...l.details].join(' — '))}</content>
  </entry>`;
  });
  const updated = lines.length > 0 ? lines[0].date : Number(event.dateCreated) || now;
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${x(locale)}">
  <title>${x(`${event.name} — ${t(locale, 'changes.title')}`)}</title>
  <id>${x(page)}</id>
  <updated>${iso(updated)}</updated>
  <link rel="self" type="application/atom+xml" href="${x(links.canonical('/schedule/changes.xml'))}"/>
  <link rel="alternate" type="text/html" href="${x(page)}"/>
  <author><name>${x(company.shortName || company.namespace || event.name)}</name></author>
${entries.join('\n')}
</feed>
`;
}

/** GET …/schedule/changes.xml: the feed, or the one-line answer of a missing or private event. */
export async function changesAtomResponse(ctx: RequestContext, namespace: string, nickname: string): Promise<Response> {
  const load = await loadEvent(ctx, namespace, nickname);
  if (load.kind === 'notFound') return plain(404, 'event not found');
  if (load.kind === 'gate') return plain(403, 'this event is private: enter its access code on the event page');
  let rows;
  try {
    rows = await readChanges(ctx, load);
  } catch (err) {
    if ((err as { status?: number }).status === 403) return plain(403, 'this event is private');
    throw err;
  }
  const body = changesAtom(load, changeLines(load, rows), Math.floor(ctx.runtime.now() / 1000));
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'application/atom+xml; charset=utf-8',
      ...(load.isPrivate ? { 'cache-control': 'private, no-store' } : {}),
    },
  });
}
