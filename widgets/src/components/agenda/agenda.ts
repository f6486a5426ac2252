import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { organizerHTML } from '../../internal/organizer-html.ts';
import type { Session } from '../../../../src/shared/schedule/program.ts';
import {
  applyFilter,
  filterFromQuery,
  filterToQuery,
  isFiltering,
  makeFilter,
  type ScheduleFilter,
} from '../../../../src/shared/schedule/filter.ts';
import { byDay, days, gridOf, nowNext, rooms } from '../../../../src/shared/schedule/group.ts';
import { formatDay, formatRange, formatTime, localTimeZone, zoneLabel } from '../../../../src/shared/schedule/time.ts';
import { PodiumElement } from '../../internal/podium-element.ts';
import { tp, type MessageKey } from '../../internal/locale.ts';
import { StoreController } from '../../internal/store-controller.ts';
import { programOf } from '../../stores/program.ts';
import type { ReadStore, Read } from '../../stores/read.ts';
import { favouritesOf, toggle } from '../../stores/favourites.ts';
import { PodiumFavouritesChangeEvent } from '../../events/events.ts';
import { common } from '../../styles/common.styles.ts';
import { styles } from './agenda.styles.ts';

const list = (value: string): string[] =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

const FILTER_ATTRIBUTES = ['view', 'days', 'rooms', 'tags', 'q', 'tz', 'mine'] as const;

/**
 * @summary The program of an event: list and grid views, day tabs, the event's or the visitor's time
 * zone, filters by track, room, day and text, favourites with an .ics download, and what is on now.
 * @tagname podium-agenda
 *
 * @event podium-favourites-change - The visitor starred or unstarred a session. `detail`: `{ eventID,
 * activityID, favourite, favourites }`.
 * @event podium-error - Loading the event or its program failed. `detail`: `{ operation, status, message }`.
 *
 * @csspart toolbar - The filters and buttons above the program.
 * @csspart tabs - The day tabs.
 * @csspart tab - One day tab.
 * @csspart summary - The line with the count of sessions and the time zone.
 * @csspart now - The "now / next" panel shown during the event.
 * @csspart day - The heading of a day (list view).
 * @csspart session - One session (list view) or one cell (grid view).
 * @csspart favourite - The star button of a session.
 * @csspart grid - The table of the grid view.
 * @csspart status - The loading, empty and error messages.
 *
 * @cssproperty --podium-color-primary - Selected tab and button, the star.
 * @cssproperty --podium-color-on-primary - Text on the primary color.
 * @cssproperty --podium-color-primary-text - Links and accents on the background.
 * @cssproperty --podium-color-text - Text.
 * @cssproperty --podium-color-muted - Times, rooms, speakers.
 * @cssproperty --podium-color-bg - Background of controls.
 * @cssproperty --podium-color-surface - Session cards.
 * @cssproperty --podium-color-border - Card and grid lines.
 * @cssproperty --podium-color-input-border - Field borders.
 * @cssproperty --podium-color-focus - Focus ring.
 * @cssproperty --podium-font-family - Font.
 * @cssproperty --podium-radius - Corner radius.
 */
export class PodiumAgenda extends PodiumElement {
  static override styles = [common, styles];

  static override properties = {
    ...PodiumElement.properties,
    view: {},
    days: {},
    rooms: {},
    tags: {},
    q: {},
    tz: {},
    mine: { type: Boolean },
    syncUrl: { type: Boolean, attribute: 'sync-url' },
    hideControls: { type: Boolean, attribute: 'hide-controls' },
    now: { type: Number },
    _filter: { state: true },
    _clock: { state: true },
    _notice: { state: true },
  };

  /** `list` (default) or `grid` (rooms × time, one table per day). */
  declare view: string;
  /** Days to show, `YYYY-MM-DD` separated by commas (default: every day; the visitor can change it). */
  declare days: string;
  /** Rooms to show, separated by commas (default: every room). */
  declare rooms: string;
  /** Tag IDs (tracks) to show, separated by commas; a session with any of them is shown. */
  declare tags: string;
  /** Text to search in titles, descriptions, rooms, speakers and tags. */
  declare q: string;
  /** `event` (default): times in the event's time zone; `local`: in the visitor's. */
  declare tz: string;
  /** Only the visitor's favourites. */
  declare mine: boolean;
  /** Keeps the filters in the page URL (`?day=…&room=…&tag=…&q=…&view=…&tz=…&mine=1`), as the site does. */
  declare syncUrl: boolean;
  /** Hides the visitor's controls (filters, views, favourites filter); the program shows as set. */
  declare hideControls: boolean;
  /** The current time as Unix seconds, for previews and tests (default: the clock). */
  declare now: number | undefined;

  declare private _filter: ScheduleFilter;
  declare private _clock: number;
  declare private _notice: string;

  #program: StoreController<Read<Session[]>> | undefined;
  #store: ReadStore<Session[]> | undefined;
  #favourites: StoreController<Set<number>> | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #reported: unknown;

  constructor() {
    super();
    this.view = 'list';
    this.days = '';
    this.rooms = '';
    this.tags = '';
    this.q = '';
    this.tz = 'event';
    this.mine = false;
    this.syncUrl = false;
    this.hideControls = false;
    this._notice = '';
    this._filter = makeFilter({ view: 'list' });
    this._clock = Date.now() / 1000;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#timer = setInterval(() => (this._clock = Date.now() / 1000), 30_000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#timer);
  }

  override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (FILTER_ATTRIBUTES.some((a) => changed.has(a)) || changed.has('syncUrl')) {
      const f = makeFilter({
        view: this.view === 'grid' ? 'grid' : 'list',
        days: list(this.days),
        rooms: list(this.rooms),
        tags: list(this.tags)
          .map(Number)
          .filter((n) => n > 0),
        q: this.q ?? '',
        tz: this.tz === 'local' ? 'local' : 'event',
        mine: this.mine,
      });
      // The page URL (a shared link, a reload) wins over the attributes' defaults.
      const query = this.syncUrl ? new URLSearchParams(location.search) : undefined;
      const fromUrl = query ? filterFromQuery(query) : undefined;
      this._filter = fromUrl
        ? {
            days: query!.has('day') ? fromUrl.days : f.days,
            rooms: query!.has('room') ? fromUrl.rooms : f.rooms,
            tags: query!.has('tag') ? fromUrl.tags : f.tags,
            q: query!.has('q') ? fromUrl.q : f.q,
            view: query!.has('view') ? fromUrl.view : f.view,
            tz: query!.has('tz') ? fromUrl.tz : f.tz,
            mine: query!.has('mine') ? fromUrl.mine : f.mine,
          }
        : f;
    }
    if (changed.has('_info')) {
      for (const c of [this.#program, this.#favourites]) if (c) this.removeController(c);
      this.#program = this.#favourites = this.#store = undefined;
      if (this._eventID !== undefined) {
        this.#store = programOf(this.api, this._info!);
        this.#program = new StoreController(this, this.#store);
        this.#favourites = new StoreController(this, favouritesOf(this._eventID));
      }
    }
    const read = this.#program?.value;
    if (read?.status === 'error' && read.error !== this.#reported) {
      this.#reported = read.error;
      this._fail('activity.find', read.error);
    }
  }

  override updated(): void {
    // Tag colors through the CSSOM: a style attribute would need 'unsafe-inline' in the page's CSP.
    for (const tag of this.renderRoot.querySelectorAll<HTMLElement>('[data-color]'))
      tag.style.setProperty('--tag', tag.dataset.color!);
  }

  /** A change the visitor made. */
  #set(patch: Partial<ScheduleFilter>): void {
    this._filter = { ...this._filter, ...patch };
    if (!this.syncUrl) return;
    const url = new URL(location.href);
    for (const key of ['day', 'room', 'tag', 'q', 'view', 'tz', 'mine']) url.searchParams.delete(key);
    for (const [k, v] of filterToQuery(this._filter)) url.searchParams.append(k, v);
    history.replaceState(history.state, '', url);
  }

  get #zone(): string {
    return this._filter.tz === 'local' ? localTimeZone() : (this._info?.timezone ?? 'UTC');
  }

  get #time(): number {
    return this.now ?? this._clock;
  }

  #toggle(s: Session): void {
    if (this._eventID === undefined) return;
    const { favourite, saved } = toggle(this._eventID, s.activityID);
    this._notice = saved ? '' : this.t('schedule.favouritesNotSaved');
    this.dispatchEvent(
      new PodiumFavouritesChangeEvent({
        eventID: this._eventID,
        activityID: s.activityID,
        favourite,
        favourites: [...(this.#favourites?.value ?? [])],
      }),
    );
  }

  async #download(sessions: Session[]): Promise<void> {
    // The calendar code is loaded on the first download (a chunk of its own in the build).
    const { toICalendar } = await import('../../../../src/shared/schedule/ical.ts');
    const name = this._info?.name || 'schedule';
    const ics = toICalendar({
      calendarName: name,
      timeZone: this._info?.timezone ?? 'UTC',
      sessions,
      uidDomain: new URL(this.api, location.href).hostname,
      now: Math.floor(Date.now() / 1000),
      speakersLabel: this.t('schedule.speakers'),
    });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([ics], { type: 'text/calendar;charset=utf-8' }));
    a.download = `${name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'schedule'}.ics`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  #onTabKey(e: KeyboardEvent, tabs: string[]): void {
    const i = tabs.indexOf(this._filter.days.length === 1 ? this._filter.days[0] : '');
    const next =
      e.key === 'ArrowRight'
        ? i + 1
        : e.key === 'ArrowLeft'
          ? i - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? -1
              : NaN;
    if (Number.isNaN(next)) return;
    e.preventDefault();
    const day = tabs.at(next % tabs.length) ?? '';
    this.#set({ days: day ? [day] : [] });
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus(),
    );
  }

  #status(text: string, retry = false): TemplateResult {
    return html`<div class="panel" part="status" role="status">
      <p>${text}</p>
      ${
        retry
          ? html`<button class="button secondary" type="button" @click=${() => this.#store?.reload()}>
              ${this.t('common.retry')}
            </button>`
          : nothing
      }
    </div>`;
  }

  #favouriteButton(s: Session, favs: Set<number>): TemplateResult {
    const on = favs.has(s.activityID);
    return html`<button
      class="fav"
      part="favourite"
      type="button"
      aria-pressed=${on ? 'true' : 'false'}
      aria-label=${this.t(on ? 'schedule.removeFavouriteNamed' : 'schedule.addFavouriteNamed', { name: s.name })}
      @click=${() => this.#toggle(s)}
    >
      <span aria-hidden="true">${on ? '★' : '☆'}</span>
    </button>`;
  }

  #tags(s: Session): TemplateResult | typeof nothing {
    if (s.tags.length === 0) return nothing;
    return html`<ul class="tags">
      ${s.tags.map(
        (t) => html`<li class="tag" data-color=${/^#[0-9a-f]{6}$/i.test(t.color) ? t.color : nothing}>${t.name}</li>`,
      )}
    </ul>`;
  }

  #session(s: Session, favs: Set<number>): TemplateResult {
    const zone = this.#zone;
    const live = s.dateBegin <= this.#time && this.#time < s.dateEnd;
    return html`<li class="session ${s.highlight ? 'highlight' : ''}" part="session">
      <div class="head">
        <p class="when muted">
          <time>${formatRange(s.dateBegin, s.dateEnd, zone, this.language)}</time>${
            s.location ? html` · <span>${s.location}</span>` : nothing
          }${live ? html` <span class="badge">${this.t('schedule.live')}</span>` : nothing}
        </p>
        ${this.#favouriteButton(s, favs)}
      </div>
      <h3 class="title">${s.name}</h3>
      ${
        s.speakers.length > 0
          ? html`<p class="speakers muted">${s.speakers.map((p) => p.name).join(', ')}</p>`
          : nothing
      }
      ${this.#tags(s)}
      ${
        s.description || /^https?:\/\//.test(s.stream)
          ? html`<details>
              <summary>${this.t('schedule.details')}</summary>
              <div class="description">${s.description ? organizerHTML(s.description) : nothing}</div>
              ${
                /^https?:\/\//.test(s.stream)
                  ? html`<p>
                      <a href=${s.stream} target="_blank" rel="noopener noreferrer">${this.t('schedule.watch')}</a>
                    </p>`
                  : nothing
              }
            </details>`
          : nothing
      }
    </li>`;
  }

  #list(sessions: Session[], favs: Set<number>): TemplateResult {
    const zone = this.#zone;
    return html`${[...byDay(sessions, zone)].map(
      ([day, items]) =>
        html`<section class="day" aria-label=${formatDay(day, zone, this.language)}>
          <h2 part="day">${formatDay(day, zone, this.language)}</h2>
          <ul class="sessions" role="list">
            ${items.map((s) => this.#session(s, favs))}
          </ul>
        </section>`,
    )}`;
  }

  #grid(sessions: Session[], all: Session[], favs: Set<number>): TemplateResult {
    const zone = this.#zone;
    const columns = this._filter.rooms.length > 0 ? rooms(sessions) : rooms(all);
    return html`${[...byDay(sessions, zone)].map(([day, items]) => {
      const grid = gridOf(items, zone, { rooms: columns });
      const label = formatDay(day, zone, this.language);
      return html`<div class="grid-wrap" role="region" aria-label=${label} tabindex="0">
        <table part="grid">
          <caption>
            ${label}
          </caption>
          <thead>
            <tr>
              <th scope="col">${this.t('schedule.time')}</th>
              ${grid.headers.map(
                (h) => html`<th scope="col" colspan=${h.colSpan}>${h.room || this.t('schedule.noRoom')}</th>`,
              )}
            </tr>
          </thead>
          <tbody>
            ${grid.slots.map(
              (slot) =>
                html`<tr>
                  <th scope="row">${formatTime(slot.start, zone, this.language)}</th>
                  ${slot.cells.map((cell) =>
                    cell === 'covered'
                      ? nothing
                      : cell === null
                        ? html`<td></td>`
                        : html`<td rowspan=${cell.rowSpan}>
                            <div class="cell ${cell.session.highlight ? 'highlight' : ''}" part="session">
                              <p class="when muted">
                                ${formatRange(cell.session.dateBegin, cell.session.dateEnd, zone, this.language)}
                              </p>
                              <p class="title">${cell.session.name}</p>
                              ${
                                cell.session.speakers.length > 0
                                  ? html`<p class="speakers muted">
                                      ${cell.session.speakers.map((p) => p.name).join(', ')}
                                    </p>`
                                  : nothing
                              }
                              ${this.#favouriteButton(cell.session, favs)}
                            </div>
                          </td>`,
                  )}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
    })}`;
  }

  #nowNext(all: Session[]): TemplateResult | typeof nothing {
    const t = this.#time;
    if (all.length === 0 || t < all[0].dateBegin - 3600 || t >= Math.max(...all.map((s) => s.dateEnd))) return nothing;
    const { now, next } = nowNext(all, t);
    const zone = this.#zone;
    const names = (items: Session[]) =>
      items.map(
        (s) => html`<li>${s.name}${s.location ? html` <span class="muted">· ${s.location}</span>` : nothing}</li>`,
      );
    return html`<section
      class="panel now"
      part="now"
      aria-label="${this.t('schedule.now')} / ${this.t('schedule.next')}"
    >
      <div>
        <h2>${this.t('schedule.now')}</h2>
        ${
          now.length > 0
            ? html`<ul>
                ${names(now)}
              </ul>`
            : html`<p class="muted">${this.t('schedule.nothingNow')}</p>`
        }
      </div>
      ${
        next.length > 0
          ? html`<div>
              <h2>${this.t('schedule.next')} · ${formatTime(next[0].dateBegin, zone, this.language)}</h2>
              <ul>
                ${names(next)}
              </ul>
            </div>`
          : nothing
      }
    </section>`;
  }

  #toolbar(all: Session[], favs: Set<number>): TemplateResult {
    const f = this._filter;
    const tags = new Map<number, string>();
    for (const s of all) for (const tag of s.tags) tags.set(tag.tagID, tag.name);
    const pressed = (on: boolean) => (on ? 'true' : 'false');
    const zonesDiffer = localTimeZone() !== (this._info?.timezone ?? 'UTC');
    return html`<div class="toolbar" part="toolbar" role="group" aria-label=${this.t('schedule.filters')}>
      <div class="control search">
        <label for="q">${this.t('schedule.search')}</label>
        <input
          id="q"
          type="search"
          placeholder=${this.t('schedule.searchPlaceholder')}
          .value=${f.q}
          @input=${(e: Event) => this.#set({ q: (e.target as HTMLInputElement).value })}
        />
      </div>
      <div class="control">
        <label for="room">${this.t('schedule.room')}</label>
        <select id="room" @change=${(e: Event) => this.#pick('rooms', (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${f.rooms.length === 0}>${this.t('schedule.allRooms')}</option>
          ${rooms(all).map(
            (r) =>
              html`<option value=${r} ?selected=${f.rooms.length === 1 && f.rooms[0] === r}>
                ${r || this.t('schedule.noRoom')}
              </option>`,
          )}
        </select>
      </div>
      ${
        tags.size > 0
          ? html`<div class="control">
              <label for="tag">${this.t('schedule.track')}</label>
              <select id="tag" @change=${(e: Event) => this.#pick('tags', (e.target as HTMLSelectElement).value)}>
                <option value="" ?selected=${f.tags.length === 0}>${this.t('schedule.allTracks')}</option>
                ${[...tags].map(
                  ([id, name]) =>
                    html`<option value=${id} ?selected=${f.tags.length === 1 && f.tags[0] === id}>${name}</option>`,
                )}
              </select>
            </div>`
          : nothing
      }
      <div class="buttons">
        ${this.#segmented('schedule.view', 'view', [
          ['list', 'schedule.list'],
          ['grid', 'schedule.grid'],
        ])}
        ${
          zonesDiffer
            ? this.#segmented('date.timeZone', 'tz', [
                ['event', 'schedule.eventTime'],
                ['local', 'schedule.myTime'],
              ])
            : nothing
        }
        <button
          type="button"
          class="button secondary"
          aria-pressed=${pressed(f.mine)}
          @click=${() => this.#set({ mine: !f.mine })}
        >
          ${this.t('schedule.mySchedule')} (${favs.size})
        </button>
        ${
          favs.size > 0
            ? html`<button
                type="button"
                class="button secondary"
                title=${this.t('schedule.downloadCalendarHint')}
                @click=${() => this.#download(all.filter((s) => favs.has(s.activityID)))}
              >
                ${this.t('schedule.downloadCalendar')}
              </button>`
            : nothing
        }
        ${
          isFiltering(f)
            ? html`<button type="button" class="button secondary" @click=${this.#clear}>
                ${this.t('schedule.clearFilters')}
              </button>`
            : nothing
        }
      </div>
    </div>`;
  }

  /** A group of buttons of which one is pressed: the view, or the time zone. */
  #segmented<K extends 'view' | 'tz'>(
    label: MessageKey,
    key: K,
    choices: [ScheduleFilter[K], MessageKey][],
  ): TemplateResult {
    return html`<div class="segmented" role="group" aria-label=${this.t(label)}>
      ${choices.map(
        ([value, text]) =>
          html`<button
            type="button"
            class="button secondary"
            aria-pressed=${this._filter[key] === value ? 'true' : 'false'}
            @click=${() => this.#set({ [key]: value })}
          >
            ${this.t(text)}
          </button>`,
      )}
    </div>`;
  }

  #pick(key: 'rooms' | 'tags', value: string): void {
    if (key === 'rooms') this.#set({ rooms: value === '' ? [] : [value] });
    else this.#set({ tags: value === '' ? [] : [Number(value)] });
  }

  #clear = (): void => this.#set({ days: [], rooms: [], tags: [], q: '', mine: false });

  #tabs(dayKeys: string[]): TemplateResult | typeof nothing {
    if (dayKeys.length < 2) return nothing;
    const tabs = ['', ...dayKeys];
    const selected = this._filter.days.length === 1 ? this._filter.days[0] : '';
    return html`<div class="tabs" part="tabs" role="tablist" aria-label=${this.t('schedule.day')}>
      ${tabs.map(
        (day) =>
          html`<button
            type="button"
            role="tab"
            part="tab"
            id="tab-${day || 'all'}"
            aria-controls="panel"
            aria-selected=${day === selected ? 'true' : 'false'}
            tabindex=${day === selected ? '0' : '-1'}
            @click=${() => this.#set({ days: day ? [day] : [] })}
            @keydown=${(e: KeyboardEvent) => this.#onTabKey(e, tabs)}
          >
            ${day ? formatDay(day, this.#zone, this.language, 'short') : this.t('schedule.allDays')}
          </button>`,
      )}
    </div>`;
  }

  protected override content(): TemplateResult {
    if (this._resolveError) return this.#status(this._errorText(this._resolveError));
    const read = this.#program?.value;
    if (!read || !this._info || (read.status === 'loading' && !read.data))
      return this.#status(this.t('schedule.loading'));
    if (read.status === 'locked') return this.#status(`${this.t('gate.title')}. ${this.t('gate.intro')}`);
    if (read.status === 'error' || !read.data) return this.#status(this.t('schedule.loadError'), true);
    const all = read.data;
    if (all.length === 0) return this.#status(this.t('schedule.empty'));
    const favs = this.#favourites?.value ?? new Set<number>();
    const zone = this.#zone;
    const dayKeys = days(all, zone);
    const f = this._filter;
    const sessions = applyFilter(all, f, zone, favs);
    const selected = f.days.length === 1 ? f.days[0] : '';
    const body =
      sessions.length > 0
        ? f.view === 'grid'
          ? this.#grid(sessions, all, favs)
          : this.#list(sessions, favs)
        : this.#status(this.t(f.mine && favs.size === 0 ? 'schedule.noFavourites' : 'schedule.noSessions'));
    return html`
      ${this.hideControls ? nothing : this.#toolbar(all, favs)}
      <p class="summary muted" part="summary" aria-live="polite">
        ${
          isFiltering(f)
            ? this.t('schedule.results', { count: sessions.length, total: all.length })
            : tp(this.language, 'schedule.sessions', all.length)
        }
        · ${this.t('date.timesIn', { zone: zoneLabel(zone, this.language, this.#time) })}
      </p>
      ${this._notice ? html`<p class="error" role="alert">${this._notice}</p>` : nothing} ${this.#nowNext(all)}
      ${this.hideControls ? nothing : this.#tabs(dayKeys)}
      <div
        id="panel"
        class="panel-body"
        role=${this.hideControls || dayKeys.length < 2 ? nothing : 'tabpanel'}
        aria-labelledby=${this.hideControls || dayKeys.length < 2 ? nothing : `tab-${selected || 'all'}`}
      >
        ${body}
      </div>
    `;
  }
}

PodiumAgenda.define('podium-agenda');

declare global {
  interface HTMLElementTagNameMap {
    'podium-agenda': PodiumAgenda;
  }
}
