import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { apiBase } from '../../internal/api.ts';
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
import { byDay, days, nowNext, rooms } from '../../../../src/shared/schedule/group.ts';
import {
  dayKey,
  formatDay,
  formatRange,
  formatTime,
  localTimeZone,
  offsetMinutes,
  safeTimeZone,
  sameClock,
  zonedParts,
  zoneLabel,
} from '../../../../src/shared/schedule/time.ts';
import { decodeEntities } from '../../../../src/shared/schedule/entities.ts';
import { PodiumElement } from '../../internal/podium-element.ts';
import { tp, type MessageKey } from '../../internal/locale.ts';
import { StoreController } from '../../internal/store-controller.ts';
import { programOf } from '../../stores/program.ts';
import type { ReadStore, Read } from '../../stores/read.ts';
import { favouritesOf, toggle } from '../../stores/favourites.ts';
import { PodiumFavouritesChangeEvent } from '../../events/events.ts';
import { common } from '../../styles/common.styles.ts';
import { styles } from './agenda.styles.ts';

/** A live mark: what happened, until when (Unix seconds), and a cancelled session as it was. */
type Mark = [MessageKey, number, Session | false];

const list = (value: string): string[] =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * The filter's keys — the attributes that set it — and their parameters in the page URL (the site's
 * own, see filterToQuery).
 */
const QUERY_KEYS = { days: 'day', rooms: 'room', tags: 'tag', q: 'q', view: 'view', tz: 'tz', mine: 'mine' };

/**
 * @summary The program of an event, one day at a time: list and grid views, day tabs, the event's or the
 * visitor's time zone, filters by track, room, day and text, favourites with an .ics download, and what
 * is on now. In a narrow container (below 48em, e.g. a phone) the program opens as a list whatever `view`
 * says (the grid when the visitor picks it, in a box that scrolls sideways), the search, room and
 * track fold under a "Filters" button beside the toggles, and what is on now and next under a button of
 * its own.
 * @tagname podium-agenda
 *
 * @event podium-favourites-change - The visitor starred or unstarred a session. `detail`: `{ eventID,
 * activityID, favourite, favourites }`.
 * @event podium-error - Loading the event or its program failed. `detail`: `{ operation, status, message }`.
 *
 * @csspart toolbar - The filters and buttons above the program.
 * @csspart tabs - The day tabs.
 * @csspart tab - One day tab (with the day's count of matches while filtering, else of favourites).
 * @csspart summary - The line with the count of sessions and the time zone.
 * @csspart now - The "now / next" panel shown during the event.
 * @csspart day - The heading of a day (list view).
 * @csspart session - One session (its card in the list, its cell's content in the grid).
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
 * @cssproperty --podium-color-danger - Errors and refused fields.
 * @cssproperty --podium-font-family - Font.
 * @cssproperty --podium-radius - Corner radius.
 * @cssproperty --podium-sticky-top - Where the grid's room names stick when the page scrolls (default 0;
 * the height of the page's own sticky header, if it has one).
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
    site: {},
    _filter: { state: true },
    _clock: { state: true },
    _notice: { state: true },
    _open: { state: true },
    _nowOpen: { state: true },
  };

  /**
   * `list` (default) or `grid` (rooms × time, one table per day). In a container narrower than 48em the
   * program opens as the list; the visitor can pick the grid.
   */
  declare view: string;
  /**
   * Days to offer, `YYYY-MM-DD` separated by commas (default: every day). One day shows at a time: the
   * visitor's pick, else today during the event, else the first day with sessions.
   */
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
  /**
   * The event's pages on the Podium site, e.g. `https://events.example.com/demo/summit`: each session's
   * title links to `{site}/schedule/{activityID}` (default: no links).
   */
  declare site: string;

  declare private _filter: ScheduleFilter;
  declare private _clock: number;
  declare private _notice: string;
  /** The filters' disclosure is open (it shows in narrow containers only). */
  declare private _open: boolean;
  /** The now/next lists are open (they fold in narrow containers only). */
  declare private _nowOpen: boolean;

  #program: StoreController<Read<Session[]>> | undefined;
  /** The event's push.subscribe, while connected. */
  #source: EventSource | undefined;
  /** What the last live update changed, for the live region (worked out before the render). */
  #said = '';
  /** The program the marks were worked out against, and the marks (moved, cancelled) by session. */
  #seen: Session[] | undefined;
  #marks = new Map<number, Mark>();
  #store: ReadStore<Session[]> | undefined;
  #favourites: StoreController<Set<number>> | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #reported: unknown;
  /** The id and width of the day tab last brought into view (see updated). */
  #centred = '';
  /** `site` as a base URL for the session links ('' = no links), worked out once per render. */
  #base = '';
  /** The grid view's chunk once loaded, or why it could not be (see #grid). */
  #gridView: typeof import('./grid.ts') | Error | undefined;
  /** The view comes from the attributes or the URL, not the visitor, and the program has not shown yet. */
  #fresh = false;

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
    this.site = '';
    this._notice = '';
    this._open = this._nowOpen = false;
    this._clock = Date.now() / 1000;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#listen();
    this.#timer = setInterval(() => (this._clock = Date.now() / 1000), 30_000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#source?.close();
    clearInterval(this.#timer);
  }

  override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    // Also on the first update: the constructor's defaults count as changes, so _filter is always set.
    if ([...Object.keys(QUERY_KEYS), 'syncUrl'].some((a) => changed.has(a))) {
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
      // The page URL (a shared link, a reload) wins over the attributes' defaults, key by key.
      const query = new URLSearchParams(this.syncUrl ? location.search : '');
      const fromUrl = filterFromQuery(query) as unknown as Record<string, unknown>;
      for (const [key, param] of Object.entries(QUERY_KEYS))
        if (query.has(param)) (f as unknown as Record<string, unknown>)[key] = fromUrl[key];
      this._filter = f;
      this.#fresh = true;
    }
    if (changed.has('_info')) {
      for (const c of [this.#program, this.#favourites]) if (c) this.removeController(c);
      this.#program = this.#favourites = this.#store = this.#seen = undefined;
      if (this._eventID !== undefined) {
        this.#store = programOf(this.api, this._info!);
        this.#program = new StoreController(this, this.#store);
        this.#favourites = new StoreController(this, favouritesOf(this._eventID));
      }
      this.#listen();
    }
    const read = this.#program?.value;
    // A grid the page asked for opens as the list in a container too narrow for its columns (a phone),
    // and the List/Grid toggle says so; the visitor may still pick the grid. Measured when the program
    // first shows: a widget not yet laid out (behind an access gate) has no width before.
    if (read?.data && this.#fresh) {
      this.#fresh = false;
      if (this.clientWidth < 48 * parseFloat(getComputedStyle(this).fontSize)) this._filter.view = 'list';
    }
    if (read?.data && read.data !== this.#seen) this.#compare(read.data);
    if (read?.status === 'error' && read.error !== this.#reported) {
      this.#reported = read.error;
      this._fail('activity.find', read.error);
    }
  }

  override updated(): void {
    // Tag colors and the grid's row lengths (minutes) through the CSSOM: a style attribute would need
    // 'unsafe-inline' in the page's CSP.
    for (const el of this.renderRoot.querySelectorAll<HTMLElement>('[data-color],[data-len]'))
      el.style.setProperty(el.dataset.len ? '--len' : '--tag', el.dataset.len ?? el.dataset.color!);
    // The day tabs are a row that scrolls sideways: a day newly shown (today on the fifth day of a
    // week-long event, a day picked with the keyboard) comes to the row's middle.
    // Again when it grows: a filter's count ("Wed 2 Dec (40)") ran the tab past the row's end.
    const tab = this.renderRoot.querySelector<HTMLElement>('[aria-selected="true"]');
    if (tab && tab.id + tab.offsetWidth !== this.#centred) {
      this.#centred = tab.id + tab.offsetWidth;
      tab.parentElement!.scrollLeft = tab.offsetLeft - (tab.parentElement!.clientWidth - tab.offsetWidth) / 2;
    }
  }

  /**
   * Live: while connected, follows the event's push.subscribe (public events only: the size budget has
   * no room for a grant; a refused stream simply ends) and reads the program again 300 ms after a
   * message — the platform's answer cache follows the same change on its own, and may be a moment
   * behind. The messages of those 300 ms make one read: a burst of edits, or what a reconnected stream
   * replays, is not a read each. The filters, the day and the focus are this element's state, and
   * stay. A `reset` (back after more than the platform's change log keeps) is a read too: what was
   * missed cannot be replayed.
   */
  #listen(): void {
    this.#source?.close();
    if (!this._info?.isPublic || !this.isConnected) return;
    const source = (this.#source = new EventSource(`${apiBase(this.api)}push/subscribe?eventID=${this._eventID}`));
    let due: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      due = undefined;
      this.#store?.reload();
    };
    for (const channel of 'activity/create activity/edit activity/remove reset'.split(' '))
      source.addEventListener(channel, () => (due ??= setTimeout(read, 300)));
  }

  /**
   * Marks what a new read of the program moved (time or room) or removed, for 5 minutes, and says it in
   * the live region. The first read marks nothing.
   */
  #compare(all: Session[]): void {
    const now = new Map(all.map((s) => [s.activityID, s]));
    let said = '';
    for (const s of this.#seen ?? []) {
      const n = now.get(s.activityID);
      const key: MessageKey | '' = !n
        ? 'live.cancelled'
        : n.dateBegin !== s.dateBegin || n.dateEnd !== s.dateEnd || n.location !== s.location
          ? 'live.moved'
          : '';
      if (!key) continue;
      this.#marks.set(s.activityID, [key, this.#time + 300, !n && s]);
      said += `${s.name}: ${this.t(key)}. `;
    }
    this.#said = said || this.#said;
    this.#seen = all;
  }

  /** A change the visitor made. */
  #set(patch: Partial<ScheduleFilter>): void {
    this._filter = { ...this._filter, ...patch };
    if (!this.syncUrl) return;
    const url = new URL(location.href);
    for (const param of Object.values(QUERY_KEYS)) url.searchParams.delete(param);
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
    // In My schedule an unstarred session leaves the list, its star with it: focus goes to the star that
    // takes its place (the next session's), else the one before, else the My schedule button.
    const stars = () => [...this.renderRoot.querySelectorAll('.fav')];
    const at = stars().indexOf((this.renderRoot as ShadowRoot).activeElement!);
    const { favourite, saved } = toggle(this._eventID, s.activityID);
    if (!favourite && this._filter.mine && at >= 0)
      this.#refocus(() => [stars()[at], stars()[at - 1], this.renderRoot.querySelector('.mine')]);
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
    // The download's code is loaded on the first download (a chunk of its own in the build).
    const { downloadCalendar } = await import('./ical.ts');
    const name = this._info?.name || 'schedule';
    // The calendar's zone helpers and entity decoder are handed over: the agenda has them already.
    downloadCalendar(name, this._info?.timezone ?? 'UTC', sessions, this.api, this.t('schedule.speakers'), {
      decodeEntities,
      offsetMinutes,
      safeTimeZone,
      zonedParts,
    });
  }

  #onTabKey(e: KeyboardEvent, tabs: string[], day: string): void {
    const i = tabs.indexOf(day);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: -1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    this.#set({ days: [tabs.at(next % tabs.length)!] });
    this.#refocus(() => [this.renderRoot.querySelector('[role="tab"][aria-selected="true"]')]);
  }

  /**
   * After the next render, focus the first of `candidates()` that is shown: for a control that takes
   * itself away (the last star of My schedule, Clear filters), so that focus stays in the agenda
   * instead of falling to the host page's <body>.
   */
  #refocus(candidates: () => (Element | null | undefined)[]): void {
    void this.updateComplete.then(() => {
      // An element not rendered (display: none) has no boxes.
      const shown = candidates().find((el) => el?.getClientRects().length);
      (shown as HTMLElement | undefined)?.focus();
    });
  }

  #favouriteButton(s: Session, favs: Set<number>): TemplateResult {
    const on = favs.has(s.activityID);
    return html`<button
      class="fav"
      part="favourite"
      type="button"
      aria-pressed=${on}
      aria-label=${this.t('schedule.favouriteNamed', { name: s.name })}
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

  /** A session's title: a link to its page on the site when `site` is set. */
  #title(s: Session): TemplateResult | string {
    return this.#base ? html`<a href="${this.#base}/schedule/${s.activityID}">${s.name}</a>` : s.name;
  }

  /** A session's card: in the list, and in a grid cell (where the grid's CSS hides what its column says). */
  #session(s: Session, favs: Set<number>): TemplateResult {
    const zone = this.#zone;
    const live = s.dateBegin <= this.#time && this.#time < s.dateEnd;
    // A mark lasts until its time (the clock re-renders every 30 s).
    const m = this.#marks.get(s.activityID);
    const mark = m && m[1] > this.#time && m[0];
    return html`<div class="session ${s.highlight ? 'highlight' : ''}" part="session">
      <div class="head">
        <p class="when muted">
          <time>${formatRange(s.dateBegin, s.dateEnd, zone, this.language)}</time>${
            s.location ? html`<span class="room"> · ${s.location}</span>` : nothing
          }${live ? html` <span class="badge">${this.t('schedule.live')}</span>` : nothing}${
            mark ? html` <span class="badge">${this.t(mark)}</span>` : nothing
          }${s.highlight ? html` <span class="badge hl">${this.t('schedule.highlight')}</span>` : nothing}
        </p>
        ${this.#favouriteButton(s, favs)}
      </div>
      <h3 class="title">${this.#title(s)}</h3>
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
    </div>`;
  }

  #list(sessions: Session[], favs: Set<number>): TemplateResult {
    const zone = this.#zone;
    return html`${[...byDay(sessions, zone)].map(
      ([day, items]) =>
        html`<section class="day">
          <h2 part="day">${formatDay(day, zone, this.language)}</h2>
          <ul class="sessions" role="list">
            ${items.map((s) => html`<li>${this.#session(s, favs)}</li>`)}
          </ul>
        </section>`,
    )}`;
  }

  /**
   * The grid view, from its chunk (grid.ts), loaded the first time the grid shows: "Loading…" until
   * then, and "Try again" if it cannot be loaded. Its columns are the rooms of the sessions shown when
   * filtering by room, else every room of the program, so each day has the same columns.
   */
  #grid(sessions: Session[], all: Session[], favs: Set<number>): TemplateResult {
    const view = this.#gridView;
    if (!view || view instanceof Error) {
      // (A browser that keeps a failed module fetch, as older ones did before whatwg/html#10327, fails
      // "Try again" too, until the page is reloaded.)
      if (!view)
        import('./grid.ts')
          .then(
            (m) => (this.#gridView = m),
            (e: Error) => (this.#gridView = e),
          )
          .finally(() => this.requestUpdate());
      return view
        ? this._status(this.t('schedule.loadError'), () => {
            this.#gridView = undefined;
            this.requestUpdate();
            // The focus goes back where the visitor asked for the grid, not to the agenda's top.
            this.#refocus(() => [this.renderRoot.querySelector('.view [aria-pressed="true"]')]);
          })
        : this._status(this.t('schedule.loading'));
    }
    const zone = this.#zone;
    return view.grid(
      this,
      {
        html,
        nothing,
        day: (d) => formatDay(d, zone, this.language),
        time: (at) => formatTime(at, zone, this.language),
        card: (s) => this.#session(s, favs),
      },
      byDay(sessions, zone),
      this._filter.rooms.length > 0 ? rooms(sessions) : rooms(all),
    );
  }

  /** What is on now and next (`all` is not empty: content() answers before). */
  #nowNext(all: Session[]): TemplateResult | typeof nothing {
    const t = this.#time;
    if (t < all[0].dateBegin - 3600 || t >= Math.max(...all.map((s) => s.dateEnd))) return nothing;
    const { now, next } = nowNext(all, t);
    const zone = this.#zone;
    const names = (items: Session[]) =>
      items.map(
        (s) =>
          html`<li>${this.#title(s)}${s.location ? html` <span class="muted">· ${s.location}</span>` : nothing}</li>`,
      );
    const label = `${this.t('schedule.now')} / ${this.t('schedule.next')}`;
    // In a narrow container the panel folds under a button, as the filters do: during the event it pushed
    // the first session of a phone's screen some 900 px down. The button is outside the panel, so that it
    // stays where it is when the panel opens.
    // Without controls (hide-controls) it never folds.
    const open = this._nowOpen || this.hideControls;
    return html`${
        this.hideControls
          ? nothing
          : html`<button
              type="button"
              class="button secondary more nn"
              aria-expanded=${open}
              aria-controls="nn"
              @click=${() => (this._nowOpen = !open)}
            >
              ${label} (${now.length + next.length})
            </button>`
      }
      <section id="nn" class="panel now ${open ? 'open' : ''}" part="now" aria-label=${label}>
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

  #toolbar(all: Session[], mine: Session[], filtering: boolean): TemplateResult {
    const f = this._filter;
    // The tracks by name, as the site's schedule lists them.
    const tags = new Map<number, string>();
    for (const s of all) for (const tag of s.tags) tags.set(tag.tagID, tag.name);
    // The switch only where the visitor's clock reads otherwise over the program (UTC at a Lisbon event in
    // winter reads the same times), as on the site.
    const zonesDiffer = !sameClock(localTimeZone(), this._info?.timezone ?? 'UTC', [
      all[0].dateBegin,
      Math.max(...all.map((s) => s.dateEnd)),
    ]);
    const active = (f.q ? 1 : 0) + f.rooms.length + f.tags.length;
    // In a narrow container the fields fold under the Filters button (see the styles), so that the first
    // session shows in a phone's first screen; in a wide one the button is hidden and the fields show.
    // My schedule comes first among the buttons: on a phone they wrap beside Filters.
    return html`<div
      class="toolbar ${this._open ? 'open' : ''}"
      part="toolbar"
      role="group"
      aria-label=${this.t('schedule.filters')}
    >
      <button
        type="button"
        class="button secondary more"
        aria-expanded=${this._open}
        aria-controls="fields"
        @click=${() => (this._open = !this._open)}
      >
        ${active ? tp(this.language, 'schedule.filtersActive', active) : this.t('schedule.filters')}
      </button>
      <div id="fields" class="fields">
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
                  ${[...tags]
                    .sort((a, b) => a[1].localeCompare(b[1]))
                    .map(
                      ([id, name]) =>
                        html`<option value=${id} ?selected=${f.tags.length === 1 && f.tags[0] === id}>${name}</option>`,
                    )}
                </select>
              </div>`
            : nothing
        }
      </div>
      <div class="buttons">
        <button
          type="button"
          class="button secondary mine"
          aria-pressed=${f.mine}
          @click=${() => this.#set({ mine: !f.mine })}
        >
          ${this.t('schedule.mySchedule')} (${mine.length})
        </button>
        ${
          mine.length > 0
            ? html`<button
                type="button"
                class="button secondary"
                title=${this.t('schedule.downloadCalendarHint')}
                @click=${() => this.#download(mine)}
              >
                ${this.t('schedule.downloadCalendar')}
              </button>`
            : nothing
        }
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
        ${
          filtering
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
    return html`<div class="segmented ${key}" role="group" aria-label=${this.t(label)}>
      ${choices.map(
        ([value, text]) =>
          html`<button
            type="button"
            class="button secondary"
            aria-pressed=${this._filter[key] === value}
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

  /** Clears every filter; the button goes with them, so focus goes to the search field (or, folded, Filters). */
  #clear = (): void => {
    this.#set({ days: [], rooms: [], tags: [], q: '', mine: false });
    this.#refocus(() => [this.renderRoot.querySelector('#q'), this.renderRoot.querySelector('.more')]);
  };

  /**
   * One tab per day. A day's mark: while filtering (My schedule included), how many sessions it has that
   * match; otherwise how many of the visitor's favourites it holds (★).
   */
  #tabs(dayKeys: string[], day: string, marks: Map<string, Session[]>, filtering: boolean) {
    return html`<div class="tabs scroll" part="tabs" role="tablist" aria-label=${this.t('schedule.day')}>
      ${dayKeys.map((d) => {
        const n = marks.get(d)?.length ?? 0;
        return html`<button
          type="button"
          role="tab"
          part="tab"
          id="tab-${d}"
          aria-controls="panel"
          aria-selected=${d === day}
          tabindex=${d === day ? '0' : '-1'}
          @click=${() => this.#set({ days: [d] })}
          @keydown=${(e: KeyboardEvent) => this.#onTabKey(e, dayKeys, day)}
        >
          ${formatDay(d, this.#zone, this.language, 'short')}${
            filtering || n
              ? html` <span class="count" aria-hidden="true">${filtering ? `(${n})` : `★${n}`}</span
                  ><span class="sr-only"
                    >(${
                      filtering ? tp(this.language, 'schedule.sessions', n) : `${this.t('schedule.favourites')}: ${n}`
                    })</span
                  >`
              : nothing
          }
        </button>`;
      })}
    </div>`;
  }

  protected override content(): TemplateResult {
    const read = this.#program?.value;
    if (!read || !this._info || (read.status === 'loading' && !read.data))
      return this._status(this.t('schedule.loading'));
    if (read.status === 'locked') return this._status(`${this.t('gate.title')}. ${this.t('gate.intro')}`);
    if (read.status === 'error' || !read.data)
      return this._status(this.t('schedule.loadError'), () => this.#store?.reload());
    // The cancelled sessions stay in their place while marked.
    const all = read.data.concat(
      [...this.#marks.values()].filter((m) => m[2] && m[1] > this.#time).map((m) => m[2] as Session),
    );
    if (all.length === 0) return this._status(this.t('schedule.empty'));
    const favs = this.#favourites?.value ?? new Set<number>();
    const zone = this.#zone;
    const f = this._filter;
    // `site` as the base of the session links: a URL or an absolute path (never `javascript:`).
    this.#base = /^(https?:)?\//i.test(this.site) ? this.site.replace(/\/+$/, '') : '';
    // The days on offer (the `days` attribute narrows them) and what the filters keep on each; the
    // favourites counted are those of this program (a stored ID may be of a session since removed).
    const offered = list(this.days);
    const dayKeys = days(all, zone).filter((d) => offered.length === 0 || offered.includes(d));
    const matches = byDay(applyFilter(all, { ...f, days: [] }, zone, favs), zone);
    const mine = all.filter((s) => favs.has(s.activityID));
    const filtering = isFiltering({ ...f, days: [] });
    // One day at a time (the whole program is 25,000 px on a phone): the visitor's pick, else today
    // during the event, else the first day with matches. Without controls every offered day shows.
    const tabbed = !this.hideControls && dayKeys.length > 1;
    const day =
      f.days.length === 1 && dayKeys.includes(f.days[0])
        ? f.days[0]
        : ([dayKey(this.#time, zone), ...dayKeys].find((d) => dayKeys.includes(d) && matches.has(d)) ?? dayKeys[0]);
    const sessions = (tabbed ? [day] : dayKeys).flatMap((d) => matches.get(d) ?? []);
    const body =
      sessions.length > 0
        ? f.view === 'grid'
          ? this.#grid(sessions, all, favs)
          : this.#list(sessions, favs)
        : this._status(this.t(f.mine && mine.length === 0 ? 'schedule.noFavourites' : 'schedule.noSessions'));
    return html`
      ${this.hideControls ? nothing : this.#toolbar(all, mine, filtering)}
      <p class="summary muted" part="summary" aria-live="polite">
        ${
          sessions.length === all.length
            ? tp(this.language, 'schedule.sessions', all.length)
            : this.t('schedule.results', { count: sessions.length, total: all.length })
        }
        · ${this.t('date.timesIn', { zone: zoneLabel(zone, this.language, this.#time) })}
        <span class="sr-only">${this.#said}</span>
      </p>
      ${this._notice ? html`<p class="error" role="alert">${this._notice}</p>` : nothing} ${this.#nowNext(all)}
      ${tabbed ? this.#tabs(dayKeys, day, filtering ? matches : byDay(mine, zone), filtering) : nothing}
      <div
        id="panel"
        class="panel-body"
        role=${tabbed ? 'tabpanel' : nothing}
        aria-labelledby=${tabbed ? `tab-${day}` : nothing}
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
