// The program as the schedule pages show it. Formatting dates and escaping text for hundreds of
// sessions is most of a render's cost, so each session's strings and HTML fragments are made once per
// program (the client hands back the same array while the platform's answer has the same bytes), zone,
// language and link base, and a render only joins the fragments of the sessions it shows.

import type { Activity } from '../client/index.ts';
import { parseProgram, type Session } from '../shared/schedule/program.ts';
import { dayKey, formatRange, formatTime, offsetMinutes, zonedParts } from '../shared/schedule/time.ts';
import { rooms as roomsOf, days as daysOf } from '../shared/schedule/group.ts';
import { gridOf } from '../shared/schedule/grid.ts';
import { escapeHtml } from './html.ts';

export interface ProgramStrings {
  tracks: string;
  noRoom: string;
  time: string;
  /** The mark of a highlighted session (a word, not a star: the star is the favourite's). */
  highlight: string;
  /** The label of a gap in the grid where no room has a session. */
  break: string;
}

export interface SessionView {
  session: Session;
  day: string;
  range: string;
  beginIso: string;
  endIso: string;
  /** <li> of the list view. */
  listHtml: string;
  /** Content of a grid cell. */
  cellHtml: string;
  /** Content of the grid's row-wide cell when the session is a break (gridOf's `band`). */
  breakHtml: string;
}

export interface ProgramView {
  sessions: Session[];
  byID: Map<number, SessionView>;
  days: string[];
  rooms: string[];
  tags: { tagID: number; name: string; color: string }[];
}

export interface ProgramOptions {
  timeZone: string;
  locale: string;
  activityHref: (id: number) => string;
  strings: ProgramStrings;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** ISO 8601 with the zone's offset: 2026-12-21T09:00:00+00:00 (schema.org, <time datetime>). */
export function isoInZone(unix: number, timeZone: string): string {
  const p = zonedParts(unix, timeZone);
  const off = offsetMinutes(unix, timeZone);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function build(activities: Activity[], o: ProgramOptions): ProgramView {
  const sessions = parseProgram(activities);
  const byID = new Map<number, SessionView>();
  const tagMap = new Map<number, { tagID: number; name: string; color: string }>();
  for (const s of sessions) {
    const id = s.activityID;
    const range = formatRange(s.dateBegin, s.dateEnd, o.timeZone, o.locale);
    const beginIso = isoInZone(s.dateBegin, o.timeZone);
    const endIso = isoInZone(s.dateEnd, o.timeZone);
    const name = escapeHtml(s.name);
    const room = escapeHtml(s.location || o.strings.noRoom);
    const href = escapeHtml(o.activityHref(id));
    const speakers = s.speakers.map((p) => escapeHtml(p.name)).join(', ');
    for (const tag of s.tags) tagMap.set(tag.tagID, tag);
    const tags =
      s.tags.length === 0
        ? ''
        : `<ul class="tags" aria-label="${escapeHtml(o.strings.tracks)}">${s.tags
            .map((tag) => `<li class="tag tag-${tag.tagID}">${escapeHtml(tag.name)}</li>`)
            .join('')}</ul>`;
    // data-b/data-e (Unix seconds) let the page's script show other zones and mark now/next; it also
    // adds the favourite buttons and the now/next badges (without a script they could not work).
    // data-room: what live updates compare (live.client.ts) to tell a session that moved.
    const times = `data-b="${s.dateBegin}" data-e="${s.dateEnd}" data-room="${escapeHtml(s.location)}"`;
    const time = `<time class="time" datetime="${beginIso}">${escapeHtml(range)}</time>`;
    const mark = s.highlight ? `<span class="badge highlight-badge">${escapeHtml(o.strings.highlight)}</span>` : '';
    const listHtml =
      `<li class="session${s.highlight ? ' is-highlight' : ''}" id="s${id}" data-id="${id}" ${times}>` +
      `<p class="when">${time}<span class="room">${room}</span>${mark}</p>` +
      `<h3><a href="${href}">${name}</a></h3>` +
      (speakers ? `<p class="session-speakers">${speakers}</p>` : '') +
      tags +
      `</li>`;
    const cellHtml =
      `<div class="cell${s.highlight ? ' is-highlight' : ''}${s.tags[0] ? ` tag-${s.tags[0].tagID}` : ''}" data-id="${id}" ${times}>` +
      `<p class="cell-when">${time}${mark}</p><a class="cell-title" href="${href}">${name}</a>` +
      `<span class="cell-room">${room}</span>` +
      (speakers ? `<span class="cell-speakers">${speakers}</span>` : '') +
      `</div>`;
    // A break activity (see gridOf) spans the grid's columns: its title, time and page, no star.
    const breakHtml =
      `<div class="cell is-break" data-id="${id}" ${times}>` +
      `<p class="cell-when">${time}</p><a class="cell-title" href="${href}">${name}</a></div>`;
    byID.set(id, {
      session: s,
      day: dayKey(s.dateBegin, o.timeZone),
      range,
      beginIso,
      endIso,
      listHtml,
      cellHtml,
      breakHtml,
    });
  }
  return {
    sessions,
    byID,
    days: daysOf(sessions, o.timeZone),
    rooms: roomsOf(sessions),
    tags: [...tagMap.values()].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const views = new WeakMap<Activity[], Map<string, ProgramView>>();

/** The prepared program (remembered while the platform answers the same bytes). */
export function programView(activities: Activity[], o: ProgramOptions): ProgramView {
  let forList = views.get(activities);
  if (!forList) views.set(activities, (forList = new Map()));
  const key = `${o.timeZone}|${o.locale}|${o.activityHref(0)}`;
  let view = forList.get(key);
  if (!view) forList.set(key, (view = build(activities, o)));
  return view;
}

/** The list view of these sessions, by day: <section>s with a heading and a list. */
export function listHtml(
  view: ProgramView,
  sessions: Session[],
  dayLabel: (day: string) => string,
  headingLevel: 2 | 3 = 2,
): string {
  const out: string[] = [];
  let day = '';
  for (const s of sessions) {
    const v = view.byID.get(s.activityID)!;
    if (v.day !== day) {
      if (day) out.push('</ul></section>');
      day = v.day;
      out.push(
        `<section class="day-block" data-day="${day}" aria-labelledby="day-${day}">` +
          `<h${headingLevel} class="day-heading" id="day-${day}">${escapeHtml(dayLabel(day))}</h${headingLevel}>` +
          `<ul class="session-list">`,
      );
    }
    out.push(v.listHtml);
  }
  if (day) out.push('</ul></section>');
  return out.join('');
}

/**
 * The grid of one day's sessions: a table of rooms (columns) × time (rows). Rows are all as long (gridOf's
 * `step`): the table's class `step-{minutes}` gives each row its height, so a session's height is its
 * length; a time where no room has a session is a labelled break across the columns.
 */
export function gridHtml(
  view: ProgramView,
  sessions: Session[],
  o: { timeZone: string; locale: string; caption: string; strings: ProgramStrings; allRooms: string[] },
): string {
  const grid = gridOf(sessions, { rooms: o.allRooms, step: true, breaks: true });
  const head = grid.headers
    .map(
      (h) =>
        `<th scope="col"${h.colSpan > 1 ? ` colspan="${h.colSpan}"` : ''}>${escapeHtml(h.room || o.strings.noRoom)}</th>`,
    )
    .join('');
  const rows: string[] = [];
  const breakLabel = `<p class="break-label">${escapeHtml(o.strings.break)}</p>`;
  for (const slot of grid.slots) {
    const cells: string[] = [];
    if (slot.band === 'covered') {
      // the break's cell above spans this row
    } else if (slot.band) {
      const { rowSpan, session } = slot.band;
      cells.push(
        `<td class="break" colspan="${grid.rooms.length}"${rowSpan > 1 ? ` rowspan="${rowSpan}"` : ''}>` +
          `${session ? view.byID.get(session.activityID)!.breakHtml : breakLabel}</td>`,
      );
    } else {
      for (const cell of slot.cells) {
        if (cell === 'covered') continue;
        if (cell === null) cells.push('<td class="free"></td>');
        else {
          const v = view.byID.get(cell.session.activityID)!;
          cells.push(`<td${cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : ''}>${v.cellHtml}</td>`);
        }
      }
    }
    // Only rows where something begins say their time (a row header); the others are room to scale.
    const label = slot.starts
      ? `<th scope="row"><time class="slot-time" data-b="${slot.start}">${escapeHtml(formatTime(slot.start, o.timeZone, o.locale))}</time></th>`
      : '<td class="tick"></td>';
    rows.push(`<tr${slot.starts ? ' class="starts"' : ''}>${label}${cells.join('')}</tr>`);
  }
  return (
    // The day is a heading (h2, as in the list), so a screen reader's headings do not skip the grid.
    `<table class="grid step-${grid.step / 60}"><caption><h2>${escapeHtml(o.caption)}</h2></caption>` +
    `<thead><tr><th scope="col" class="time-col">${escapeHtml(o.strings.time)}</th>${head}</tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}
