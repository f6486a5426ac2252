// The agenda's grid view (rooms × time, one table per day). The list is the default view, and a phone
// opens as the list whatever `view` says, so the grid is a chunk of its own, loaded the first time it
// shows (about 1 KB gzip off every page that loads the agenda). Like the calendar (ical.ts) it uses no
// code the agenda has, which would become a chunk of its own between the two: the agenda hands over
// Lit's tags, its zone's formatters and its session card, and the build gives it its English messages
// (podium:messages-via-host).

import type { html as Html, nothing as Nothing, TemplateResult } from 'lit';
import type { Session } from '../../../../src/shared/schedule/program.ts';
import { gridOf } from '../../../../src/shared/schedule/grid.ts';
import type { MessageKey } from '../../internal/locale.ts';

/** The build's English messages of this module (widgets/build.mjs). */
declare const podiumOwnMessages$: Record<string, string> | undefined;

/** What of the agenda the grid uses. */
export interface Agenda {
  t(key: MessageKey): string;
  language: string;
}

/** What the agenda hands over: Lit's tags, and its own formatters and card in the zone shown. */
export interface Parts {
  html: typeof Html;
  nothing: typeof Nothing;
  /** A day (`YYYY-MM-DD`) as its heading says it. */
  day: (day: string) => string;
  /** A row's start time. */
  time: (at: number) => string;
  /** A session's card. */
  card: (s: Session) => TemplateResult;
}

/**
 * One table per day of `byDay` (the day's sessions), a column per room of `columns` (every room of
 * those sessions, in order). Rows are as long as their time (`--len` minutes, see the styles), a row
 * where nothing happens is a labelled break, and the room names stick to the top while the page scrolls
 * (the table is not in a scrolling box: it fits its container). Below 48em the grid keeps 48em and
 * scrolls sideways in a box of its own (the page does not); that box's inner container gives the cells
 * their wide-container styles.
 */
export function grid(
  el: unknown,
  { html, nothing, day, time, card }: Parts,
  byDay: Map<string, Session[]>,
  columns: string[],
): TemplateResult {
  const agenda = el as Agenda;
  const own = typeof podiumOwnMessages$ === 'undefined' || agenda.language !== 'en' ? undefined : podiumOwnMessages$;
  const t = (key: MessageKey) => own?.[key] ?? agenda.t(key);
  return html`<div class="wide">
    <div>
      ${[...byDay].map(([d, items]) => {
        const g = gridOf(items, { rooms: columns });
        return html`<table part="grid">
          <caption>
            <h2 part="day">${day(d)}</h2>
          </caption>
          <thead>
            <tr>
              <th scope="col">${t('schedule.time')}</th>
              ${g.headers.map((h) => html`<th scope="col" colspan=${h.colSpan}>${h.room || t('schedule.noRoom')}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${g.slots.map(
              (slot) =>
                html`<tr data-len=${(slot.end - slot.start) / 60}>
                  <th scope="row">${time(slot.start)}</th>
                  ${
                    slot.cells.every((cell) => cell === null)
                      ? html`<td class="break muted" colspan=${slot.cells.length}>${t('schedule.break')}</td>`
                      : slot.cells.map((cell) =>
                          cell === 'covered'
                            ? nothing
                            : cell === null
                              ? html`<td></td>`
                              : html`<td rowspan=${cell.rowSpan}>${card(cell.session)}</td>`,
                        )
                  }
                </tr>`,
            )}
          </tbody>
        </table>`;
      })}
    </div>
  </div>`;
}
