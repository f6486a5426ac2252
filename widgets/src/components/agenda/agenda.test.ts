import { setViewport } from '@web/test-runner-commands';
import { callAll } from '../../internal/paged.ts';
import './agenda.ts';
import type { PodiumAgenda } from './agenda.ts';
import { setGrant } from '../../stores/grant.ts';
import { favouritesOf } from '../../stores/favourites.ts';
import { parseProgram, type Session } from '../../../../src/shared/schedule/program.ts';
import { htmlToText } from '../../../../src/shared/schedule/text.ts';
import { dayKey } from '../../../../src/shared/schedule/time.ts';
import { nowNext } from '../../../../src/shared/schedule/group.ts';
import {
  $,
  $$,
  admin,
  assert,
  equal,
  expectAccessible,
  mount,
  screenshots,
  setUp,
  type,
  until,
} from '../../../test/helpers.ts';

const info = setUp();
/** The summit's program in the order every view shows it. */
let program: Session[];
/** Its days (in the event's zone, Lisbon) and the sessions of each. */
let days: string[];
const onDay = (day: string, sessions = program) => sessions.filter((s) => dayKey(s.dateBegin, 'Europe/Lisbon') === day);

const agenda = (attributes = '') =>
  mount<PodiumAgenda>(`<podium-agenda api="${info.api}" event="1" ${attributes}></podium-agenda>`);
const sessions = (el: PodiumAgenda) => $$(el, '.session');
/** The program, and the grid when it is the view (its code loads the first time: "Loading…" until then). */
const loaded = (el: PodiumAgenda) =>
  until(
    () => $(el, '[part="summary"]') && !/^Loading/.test($(el, '#panel > [part="status"]')?.textContent?.trim() ?? ''),
    'the program',
  );
const titles = (el: PodiumAgenda) => $$(el, '.session .title').map((t) => t.textContent!.trim());

describe('<podium-agenda>', () => {
  before(async () => {
    // The whole program, every page of it (the platform answers at most 100 a page).
    program = parseProgram(await callAll(info.api, 'activity.find', { eventID: 1 }));
    days = [...new Set(program.map((s) => dayKey(s.dateBegin, 'Europe/Lisbon')))];
  });

  it('lists the program one day at a time, with day tabs, accessibly', async () => {
    const el = agenda();
    await loaded(el);
    equal(days.length, 3);
    equal(
      titles(el),
      onDay(days[0]).map((s) => s.name),
      'the first day (before the event)',
    );
    const tabs = $$<HTMLButtonElement>(el, '[role="tab"]');
    equal(
      tabs.map((t) => t.getAttribute('aria-selected')),
      ['true', 'false', 'false'],
      'a tab per day, no "all days"',
    );
    equal($$(el, '.day h2').length, 1);
    const summary = $(el, '[part="summary"]')!.textContent!;
    assert(summary.includes(`${onDay(days[0]).length} of 120 sessions`), summary);
    await expectAccessible(el);
    // Every day is a tab away, and the days together are the whole program.
    let shown = 0;
    for (const tab of tabs) {
      tab.click();
      await el.updateComplete;
      shown += sessions(el).length;
    }
    equal(shown, program.length);
  });

  it('shows the grid view: one table per day, rooms as columns, accessibly', async () => {
    const el = agenda('view="grid" days="2037-12-21"');
    await loaded(el);
    const tables = $$(el, 'table');
    equal(tables.length, 1);
    const headers = $$(el, 'thead th').map((th) => th.textContent!.trim());
    equal(headers[0], 'Time');
    assert(headers.includes('Main Hall'), headers.join('|'));
    assert($$(el, 'td .title').length > 0, 'sessions in cells');
    // The day is a heading above the sessions' (h2, then h3s), as in the list: headings keep their levels.
    const levels = $$(el, 'h2, h3').map((h) => h.tagName);
    equal(levels[0], 'H2');
    assert(levels.length > 1 && levels.slice(1).every((l) => l === 'H3'), levels.join(' '));
    equal($(el, 'caption h2')!.textContent!.trim(), $(el, 'caption')!.textContent!.trim());
    await expectAccessible(el);
  });

  it('takes filters from attributes: rooms, tags, text, days', async () => {
    // Without controls (no tabs) every day shows.
    const room = agenda('rooms="Main Hall" hide-controls');
    await loaded(el(room));
    equal(sessions(room).length, program.filter((s) => s.location === 'Main Hall').length);
    assert(!$(room, '[part="toolbar"]'), 'no controls');
    const tag = program.find((s) => s.tags.length)!.tags[0].tagID;
    const tagged = agenda(`tags="${tag}" hide-controls`);
    await loaded(tagged);
    equal(sessions(tagged).length, program.filter((s) => s.tags.some((t) => t.tagID === tag)).length);
    const text = agenda(`q="${program[5].name}"`);
    await loaded(text);
    assert(titles(text).includes(program[5].name), 'found by text');
    assert(sessions(text).length < program.length, 'narrowed');
    // Two of the three days on offer: two tabs, the first of them shown.
    const two = agenda(`days="${days[1]},${days[2]}"`);
    await loaded(two);
    equal($$(two, '[role="tab"]').length, 2);
    equal(
      titles(two),
      onDay(days[1]).map((s) => s.name),
    );
  });

  it('lets the visitor filter, search, pick a day with the keyboard and clear it all', async () => {
    const el = agenda();
    await loaded(el);
    // The tracks by name, as the site lists them (the program's order is another).
    const tracks = $$<HTMLOptionElement>(el, '#tag option')
      .slice(1)
      .map((o) => o.textContent!.trim());
    const byName = [...new Set(program.flatMap((s) => s.tags.map((t) => t.name)))].sort((a, b) => a.localeCompare(b));
    equal(tracks, byName);
    type($<HTMLSelectElement>(el, '#room')!, 'Studio');
    await el.updateComplete;
    const studio = program.filter((s) => s.location === 'Studio');
    equal(sessions(el).length, onDay(days[0], studio).length);
    const summary = $(el, '[part="summary"]')!.textContent!;
    assert(summary.includes(`${onDay(days[0], studio).length} of 120 sessions`), `counts what shows: ${summary}`);
    // Each tab says how many match on its day.
    equal(
      $$(el, '[role="tab"] .count').map((c) => c.textContent),
      days.map((d) => `(${onDay(d, studio).length})`),
    );
    type($<HTMLInputElement>(el, '#q')!, 'zzzz no such session');
    await el.updateComplete;
    assert(/No sessions match/.test($(el, '[part="status"]')!.textContent!), 'empty state');
    const clear = $$<HTMLButtonElement>(el, '[part="toolbar"] button').find((b) =>
      /Clear filters/.test(b.textContent!),
    )!;
    clear.focus();
    clear.click();
    await el.updateComplete;
    await el.updateComplete;
    equal(sessions(el).length, onDay(days[0]).length);
    // The button went with the filters: the focus stays in the agenda, on the search (or, folded, Filters).
    assert(!clear.isConnected, 'Clear filters is gone');
    assert(el.shadowRoot!.activeElement?.matches('#q, .more'), `focus: ${el.shadowRoot!.activeElement?.outerHTML}`);
    const tabs = $$<HTMLButtonElement>(el, '[role="tab"]');
    tabs[0].focus();
    tabs[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    await el.updateComplete;
    await el.updateComplete;
    const selected = $(el, '[role="tab"][aria-selected="true"]')!;
    equal(el.shadowRoot!.activeElement, selected, 'focus follows the selection');
    equal(selected, tabs[1]);
    equal(
      titles(el),
      onDay(days[1]).map((s) => s.name),
    );
    equal($(el, '[role="tabpanel"]')!.getAttribute('aria-labelledby'), selected.id);
  });

  it("switches between the event's time zone and the visitor's", async () => {
    const el = agenda();
    await loaded(el);
    const summary = () => $(el, '[part="summary"]')!.textContent!;
    assert(summary().includes('Lisbon'), summary());
    const local = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    const button = $$<HTMLButtonElement>(el, 'button').find((b) => b.textContent!.includes('My time'));
    if (local === 'Europe/Lisbon') return void assert(!button, 'no toggle when the zones are the same');
    button!.click();
    await el.updateComplete;
    equal(button!.getAttribute('aria-pressed'), 'true');
    assert(!summary().includes('Lisbon'), summary());
  });

  it('offers no "My time" where the visitor\'s clock reads the same (another zone, the same offset)', async () => {
    // The visitor is in São Paulo (web-test-runner.config.mjs); Buenos Aires has had the same clock since 2019.
    const made = await admin('company.event.bind', { companyID: 1 }, { name: 'Same clock', nickname: `clock${Date.now()}` }); // prettier-ignore
    const eventID = String(made.data[0].eventID);
    const at = Date.parse('2037-12-28T12:00:00Z') / 1000;
    for (const [key, value] of Object.entries({
      timezone: 'America/Argentina/Buenos_Aires',
      dateBegin: String(at),
      visible: '1',
    }))
      // prettier-ignore
      await admin('event.edit', { eventID, key }, { value });
    await admin('activity.create', { eventID }, { name: 'Talk', location: 'Room A', dateBegin: String(at), dateEnd: String(at + 1800) }); // prettier-ignore
    const el = mount<PodiumAgenda>(`<podium-agenda api="${info.api}" event="${eventID}"></podium-agenda>`);
    await loaded(el);
    equal(titles(el), ['Talk']);
    assert(!$$(el, 'button').some((b) => b.textContent!.includes('My time')), 'no toggle');
  });

  it('keeps favourites in localStorage, filters by them and downloads them as .ics', async () => {
    const el = agenda();
    await loaded(el);
    const changes: CustomEvent[] = [];
    el.addEventListener('podium-favourites-change', (e) => changes.push(e));
    const star = $<HTMLButtonElement>(el, '[part="favourite"]')!;
    equal(star.getAttribute('aria-pressed'), 'false');
    const name = star.getAttribute('aria-label');
    equal(name, `Favourite “${program[0].name}”`, 'named after the session');
    star.click();
    await el.updateComplete;
    equal(star.getAttribute('aria-pressed'), 'true');
    // A toggle: aria-pressed says it is on, so its name stays (not "Remove …", read as "… pressed").
    equal(star.getAttribute('aria-label'), name);
    equal(JSON.parse(localStorage.getItem('podium:favourites:1')!), [program[0].activityID]);
    equal(changes[0].detail.favourites, [program[0].activityID]);
    const mine = $$<HTMLButtonElement>(el, 'button').find((b) => b.textContent!.includes('My schedule'))!;
    assert(mine.textContent!.includes('(1)'), mine.textContent!);
    mine.click();
    await el.updateComplete;
    equal(titles(el), [program[0].name]);
    // The download: the calendar of the favourites.
    let blob: Blob | undefined;
    const create = URL.createObjectURL;
    URL.createObjectURL = (b: Blob) => ((blob = b), 'blob:podium-test');
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {};
    try {
      $$<HTMLButtonElement>(el, 'button')
        .find((b) => b.textContent!.includes('Download calendar'))!
        .click();
      // The calendar code is loaded on the first download (a chunk of its own in the build).
      for (let i = 0; !blob && i < 200; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      URL.createObjectURL = create;
      HTMLAnchorElement.prototype.click = click;
    }
    const ics = await blob!.text();
    assert(ics.startsWith('BEGIN:VCALENDAR'), ics.slice(0, 50));
    equal(ics.match(/BEGIN:VEVENT/g)!.length, 1);
    assert(ics.includes('TZID=Europe/Lisbon'), 'in the event zone');
    // The description is the session's HTML as text (the calendar chunk's conversion, the agenda's decoder).
    assert(program[0].description, 'the demo session has a description');
    const words = htmlToText(program[0].description).split(/[\n,;\\]/)[0];
    assert(ics.replace(/\r\n /g, '').includes(`DESCRIPTION:${words}`), `${words} in ${ics}`);
    // Another agenda of the same event on the page shares them.
    const other = agenda();
    await loaded(other);
    equal($(other, '[part="favourite"]')!.getAttribute('aria-pressed'), 'true');
  });

  it('shows what is on now and next during the event', async () => {
    const first = program[0];
    const during = first.dateBegin + 60;
    const el = agenda(`now="${during}"`);
    await loaded(el);
    const panel = $(el, '[part="now"]')!;
    assert(panel, 'the now panel');
    assert(panel.textContent!.includes(first.name), panel.textContent!);
    assert(/Next/.test(panel.textContent!), 'and next');
    // A wide container shows the lists, without the button that folds them on a phone.
    equal(getComputedStyle($(el, '.nn')!).display, 'none', 'no fold button on a desktop');
    assert(panel.offsetParent !== null, 'the lists show');
    assert($(el, '.badge'), 'a live badge on the running session');
    const before = agenda(`now="${first.dateBegin - 86_400 * 30}"`);
    await loaded(before);
    assert(!$(before, '[part="now"]'), 'nothing before the event');
  });

  it("waits for a private event's grant", async () => {
    const el = mount<PodiumAgenda>(`<podium-agenda api="${info.api}" event="demo/partners"></podium-agenda>`);
    await until(() => /private/i.test($(el, '[part="status"]')?.textContent ?? ''), 'locked');
    const res = await fetch(`${info.api}/event/checkAccessCode?eventID=${info.privateEventID}`, {
      method: 'POST',
      body: new URLSearchParams({ accessCode: info.accessCode }),
    });
    setGrant(info.api, info.privateEventID, (await res.json()).data[0].grant);
    await until(() => !/private/i.test($(el, '[part="status"]')?.textContent ?? ''), 'unlocked');
  });

  it('keeps the filters in the page URL with sync-url', async () => {
    const before = location.href;
    try {
      const el = agenda('sync-url');
      await loaded(el);
      type($<HTMLSelectElement>(el, '#room')!, 'Studio');
      await el.updateComplete;
      equal(new URL(location.href).searchParams.get('room'), 'Studio');
      const again = agenda('sync-url');
      await loaded(again);
      equal($<HTMLSelectElement>(again, '#room')!.value, 'Studio');
    } finally {
      history.replaceState(null, '', before);
    }
  });

  it('reports an unknown event', async () => {
    const errors: CustomEvent[] = [];
    document.addEventListener('podium-error', (e) => errors.push(e as CustomEvent), { once: true });
    const el = mount<PodiumAgenda>(`<podium-agenda api="${info.api}" event="999999"></podium-agenda>`);
    await until(() => /not found/i.test($(el, '[part="status"]')?.textContent ?? ''), 'not found');
    equal(errors[0]?.detail.status, 404);
  });

  it('shows which toggles are pressed: filled and ticked, the others outlined', async () => {
    const el = agenda();
    await loaded(el);
    const toggles = $$<HTMLButtonElement>(el, '[part="toolbar"] [aria-pressed]');
    assert(toggles.length >= 3, 'List/Grid, My schedule (and Event/My time)');
    const look = (b: HTMLButtonElement) => {
      const style = getComputedStyle(b);
      return { background: style.backgroundColor, color: style.color, mark: getComputedStyle(b, '::before').content };
    };
    const pressed = toggles.filter((b) => b.getAttribute('aria-pressed') === 'true').map(look);
    const off = toggles.filter((b) => b.getAttribute('aria-pressed') === 'false').map(look);
    assert(pressed.length > 0 && off.length > 0, 'both kinds');
    for (const p of pressed) equal(p, { ...pressed[0], mark: p.mark }, 'every pressed toggle looks alike');
    for (const o of off) {
      equal(o.background, 'rgb(255, 255, 255)', 'not pressed: the background');
      assert(o.background !== pressed[0].background && o.color !== pressed[0].color, 'unlike the pressed ones');
      equal(o.mark, 'none', 'no tick');
    }
    equal(pressed[0].background, 'rgb(29, 78, 216)', 'pressed: the primary color');
    assert(/✓/.test(pressed[0].mark), `a tick, not color alone: ${pressed[0].mark}`);
    await screenshots('agenda-toggles', () => el.scrollIntoView());
    await expectAccessible(el);
  });

  describe('the grid on a desktop', () => {
    afterEach(() => window.scrollTo(0, 0));

    it('keeps the room names in view, sizes rows by their time and labels the breaks', async () => {
      await setViewport({ width: 1280, height: 800 });
      const el = agenda(`view="grid" days="${days[0]}"`);
      await loaded(el);
      const table = $(el, 'table')!;
      equal(table.getBoundingClientRect().width <= el.getBoundingClientRect().width, true, 'fits: no scrolling box');
      // Scrolled half-way down the day: the room names stay at the top.
      window.scrollTo(0, table.getBoundingClientRect().top + window.scrollY + table.offsetHeight / 2);
      await new Promise((r) => requestAnimationFrame(r));
      const header = $(el, 'thead th:nth-child(2)')!;
      assert(Math.abs(header.getBoundingClientRect().top) < 2, `stuck: ${header.getBoundingClientRect().top}`);
      equal(header.textContent!.trim(), 'Douro Room');
      // Rows by time: an hour's row is 4/3 of a 45 minutes' one, and a 15 minutes' break a quarter of an hour's.
      const rows = $$<HTMLTableRowElement>(el, 'tbody tr');
      const height = (minutes: number) => rows.find((r) => r.dataset.len === String(minutes))!.offsetHeight;
      const near = (a: number, b: number) => Math.abs(a / b - 1) < 0.1;
      assert(near(height(60) / height(45), 60 / 45), `60 vs 45 minutes: ${height(60)} / ${height(45)} px`);
      assert(near(height(60) / height(15), 4), `60 vs 15 minutes: ${height(60)} / ${height(15)} px`);
      // A time when nothing happens is one labelled cell across the rooms.
      const breaks = $$<HTMLTableCellElement>(el, 'td.break');
      assert(breaks.length > 0, 'breaks');
      for (const b of breaks) {
        equal(b.textContent!.trim(), 'Break');
        equal(b.colSpan, 6);
      }
      // A highlighted session says so in words, unlike the favourite's star.
      const keynote = $$(el, 'td .session.highlight')[0];
      equal(keynote.querySelector('.hl')!.textContent!.trim(), 'Highlight');
      await screenshots('agenda-grid-scrolled', () => {}, [1280]);
      await expectAccessible(el);
    });

    it('keeps each star inside its card and clear of the badges, in a narrow grid', async () => {
      await setViewport({ width: 1280, height: 800 });
      // 50em: still the grid (48em and up), six rooms of about 7em each.
      const el = agenda(`view="grid" days="${days[0]}" style="display: block; width: 50em"`);
      await loaded(el);
      const inside = (a: DOMRect, b: DOMRect) =>
        a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;
      const apart = (a: DOMRect, b: DOMRect) =>
        a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      const cards = $$(el, 'td .session');
      assert(
        cards.some((c) => c.classList.contains('highlight')),
        'a highlighted session is in the grid',
      );
      for (const card of cards) {
        const star = card.querySelector('.fav')!.getBoundingClientRect();
        const title = card.querySelector('.title')!.textContent!.trim();
        assert(inside(star, card.getBoundingClientRect()), `${title}: the star is inside its card`);
        for (const badge of card.querySelectorAll('.badge'))
          assert(apart(star, badge.getBoundingClientRect()), `${title}: "${badge.textContent}" clear of the star`);
      }
      await screenshots('agenda-grid-narrow', () => {}, [1280]);
      await expectAccessible(el);
    });

    it('wraps titles between words in narrow cells, clear of the star', async () => {
      await setViewport({ width: 1280, height: 800 });
      // Six rooms in cells of about 120 to 175 px ("Worksho / p: Event / Check-in" was seen in a 1120 px agenda).
      const el = agenda(`view="grid" days="${days[0]}" style="display: block"`);
      await loaded(el);
      const broken: string[] = [];
      for (const width of [800, 900, 1120]) {
        el.style.width = `${width}px`;
        await new Promise((r) => requestAnimationFrame(r));
        const cards = $$(el, 'td .session');
        const cell = Math.round(cards[0].closest('td')!.getBoundingClientRect().width);
        for (const card of cards) {
          const title = card.querySelector('.title')!;
          const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
          let text: Node | null;
          while ((text = walker.nextNode()) && !text.textContent!.trim());
          const name = text!.textContent!;
          // A word is on one line (a hyphenated one may wrap after its hyphen) unless it is wider than the
          // title's whole line: then breaking it is the last resort (a font's widths vary).
          const range = document.createRange();
          for (const m of name.matchAll(/[^\s-]+-?/g)) {
            range.setStart(text!, m.index);
            range.setEnd(text!, m.index + m[0].length);
            const parts = [...range.getClientRects()];
            const wide = parts.reduce((sum, r) => sum + r.width, 0);
            if (parts.length > 1 && wide <= title.clientWidth)
              broken.push(
                `${cell} px: "${m[0]}" (${Math.round(wide)} px) in "${name}" (lines of ${title.clientWidth} px)`,
              );
          }
          // And no line of the title runs under the star.
          const star = card.querySelector('.fav')!.getBoundingClientRect();
          range.selectNodeContents(text!);
          for (const line of range.getClientRects())
            assert(line.right <= star.left || line.top >= star.bottom, `${cell} px: "${name}" clear of the star`);
        }
        assert(cards.some((c) => c.querySelector('.title')!.textContent!.trim() === 'Workshop: Event Check-in'));
      }
      equal(broken, [], 'no word broken that fits a line');
      await expectAccessible(el);
    });
  });

  describe('on a phone', () => {
    after(() => setViewport({ width: 800, height: 600 }));
    afterEach(() => favouritesOf(1).set(new Set()));

    it('opens a grid as the list in a narrow container, says so on its toggle, and shows the grid when asked', async () => {
      await setViewport({ width: 390, height: 844 });
      const el = agenda('view="grid"');
      await loaded(el);
      const width = el.getBoundingClientRect().width;
      assert(width <= 374, `the page's width less its margins: ${width}`);
      // The list: each card says its room (a column would); one day only.
      equal($(el, 'table'), null, 'no grid squeezed into a phone');
      equal(
        titles(el).sort(),
        onDay(days[0])
          .map((s) => s.name)
          .sort(),
      );
      equal($$(el, '.session .room').length, onDay(days[0]).filter((s) => s.location).length);
      // The toggle shows and tells the truth: the list is what shows.
      const [list, grid] = $$<HTMLButtonElement>(el, '.segmented.view .button');
      assert(list.offsetParent !== null && grid.offsetParent !== null, 'the List/Grid toggle shows');
      equal(
        [list, grid].map((b) => b.getAttribute('aria-pressed')),
        ['true', 'false'],
        'List pressed',
      );
      equal(document.documentElement.scrollWidth, document.documentElement.clientWidth, 'no sideways scroll');
      await expectAccessible(el);
      // Asked for, the grid is a real grid (rooms as columns) in a box of its own that scrolls sideways.
      grid.click();
      await el.updateComplete;
      await loaded(el);
      equal(
        [list, grid].map((b) => b.getAttribute('aria-pressed')),
        ['false', 'true'],
        'Grid pressed',
      );
      const table = $(el, 'table')!;
      equal(getComputedStyle($(el, 'thead')!).display, 'table-header-group', 'the rooms head the columns');
      const header = $(el, 'thead th:nth-child(2)')!.getBoundingClientRect();
      assert(header.width >= 80, `a room's column is readable: ${header.width} px`);
      const box = $(el, '.wide')!;
      assert(box.contains(table) && box.scrollWidth > box.clientWidth, 'the grid scrolls in its box');
      assert(box.getBoundingClientRect().right <= el.getBoundingClientRect().right, 'the box fits the agenda');
      equal(document.documentElement.scrollWidth, document.documentElement.clientWidth, 'the page does not scroll');
      await screenshots('agenda-grid-phone', () => el.scrollIntoView(), [390]);
      await expectAccessible(el);
      list.click();
      await el.updateComplete;
      equal($(el, 'table'), null, 'back to the list');
    });

    it('shows every toolbar control in full, with no sideways scroll (the toggles wrap)', async () => {
      await setViewport({ width: 390, height: 844 });
      // My schedule with favourites, so the calendar download shows too: the longest row of toggles.
      favouritesOf(1).set(new Set([program[0].activityID]));
      const el = agenda();
      await loaded(el);
      await new Promise((r) => requestAnimationFrame(r));
      const box = el.getBoundingClientRect();
      const controls = $$(el, '[part="toolbar"] .button').filter((b) => b.offsetParent !== null);
      assert(controls.length >= 7, `Filters, My schedule, the calendar, List/Grid, the time zones: ${controls.length}`);
      for (const b of controls) {
        const r = b.getBoundingClientRect();
        assert(
          r.left >= box.left && r.right <= box.right,
          `"${b.textContent!.trim()}" within the agenda: ${r.left}..${r.right} in ${box.left}..${box.right}`,
        );
      }
      for (const row of $$(el, '[part="toolbar"], [part="toolbar"] *'))
        assert(row.scrollWidth <= row.clientWidth, `${row.className || row.tagName} scrolls sideways`);
      equal(document.documentElement.scrollWidth, document.documentElement.clientWidth, 'no sideways scroll');
      // Still the program first: the toolbar is a few rows, not a screen.
      const top = sessions(el)[0].getBoundingClientRect().top - box.top;
      assert(top <= 290, `the first session's top: ${top} px below the widget's`);
      await screenshots('agenda-toolbar-phone', () => el.scrollIntoView(), [390]);
      await expectAccessible(el);
    });

    it('takes the width of a flex row it is put in (a container is not sized by its content)', async () => {
      const row = mount<HTMLDivElement>(
        `<div style="display: flex; gap: 8px"><p>Program</p><podium-agenda api="${info.api}" event="1"></podium-agenda></div>`,
      );
      const el = row.querySelector('podium-agenda')!;
      await loaded(el);
      assert(el.getBoundingClientRect().width > 250, `its width: ${el.getBoundingClientRect().width}`);
    });

    it('shows the first session in the first screen: filters folded, toggles wrapped beside them, days in a row that scrolls', async () => {
      const el = agenda();
      await loaded(el);
      await screenshots('agenda-first-screen', () => el.scrollIntoView());
      const more = $<HTMLButtonElement>(el, '.more')!;
      const fields = $(el, '#fields')!;
      // A desktop shows the fields and no Filters button.
      equal(getComputedStyle(more).display, 'none', 'no Filters button on a desktop');
      assert(fields.querySelector('input')!.offsetParent !== null, 'the fields show on a desktop');
      await setViewport({ width: 390, height: 844 });
      await new Promise((r) => requestAnimationFrame(r));
      const top = sessions(el)[0].getBoundingClientRect().top - el.getBoundingClientRect().top;
      assert(top <= 290, `the first session's top: ${top} px below the widget's`);
      equal(document.documentElement.scrollWidth, document.documentElement.clientWidth, 'no sideways scroll');
      // The fields fold under a button that says so; the first toggle shares its row, the others wrap.
      equal(more.getAttribute('aria-expanded'), 'false');
      equal(more.textContent!.trim(), 'Filters');
      equal(fields.offsetParent, null, 'folded');
      const middle = (b: Element) => Math.round(b.getBoundingClientRect().top + b.getBoundingClientRect().height / 2);
      equal(middle($(el, '.mine')!), middle(more), 'My schedule beside Filters');
      // Open, the fields show; the button counts the filters in use.
      more.click();
      await el.updateComplete;
      equal(more.getAttribute('aria-expanded'), 'true');
      assert(fields.offsetParent !== null, 'unfolded');
      type($<HTMLSelectElement>(el, '#room')!, 'Studio');
      type($<HTMLInputElement>(el, '#q')!, 'a');
      await el.updateComplete;
      equal(more.textContent!.trim(), 'Filters (2 active)');
      await screenshots('agenda-filters-open-phone', () => el.scrollIntoView(), [390]);
      await expectAccessible(el);
      // The days: a row that scrolls, the last one brought into view by the keyboard.
      const tabs = $(el, '.tabs')!;
      assert(tabs.scrollWidth > tabs.clientWidth, 'more days than fit');
      const tab = $$<HTMLButtonElement>(el, '[role="tab"]');
      tab[0].focus();
      tab[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
      await el.updateComplete;
      await el.updateComplete;
      const last = tab.at(-1)!;
      equal(el.shadowRoot!.activeElement, last);
      assert(
        last.getBoundingClientRect().right <= tabs.getBoundingClientRect().right,
        `the last day in view: ${last.getBoundingClientRect().right} > ${tabs.getBoundingClientRect().right}`,
      );
      more.click();
      await el.updateComplete;
      equal(fields.offsetParent, null, 'folded again');
      // On the last day of the event its tab shows from the start.
      const today = agenda(`now="${onDay(days[2])[0].dateBegin + 60}"`);
      await loaded(today);
      const bar = $(today, '.tabs')!.getBoundingClientRect();
      const shown = $(today, '[aria-selected="true"]')!.getBoundingClientRect();
      assert(shown.left >= bar.left && shown.right <= bar.right, `today's tab in view: ${shown.right} > ${bar.right}`);
      // Grown by a filter's count ("Wed 23 Dec (40)"), it comes into view again.
      type($<HTMLInputElement>(today, '#q')!, 'a');
      await today.updateComplete;
      await today.updateComplete;
      const grown = $(today, '[aria-selected="true"]')!;
      assert(/\(\d+\)/.test(grown.textContent!), grown.textContent!);
      const after = grown.getBoundingClientRect();
      assert(after.right <= $(today, '.tabs')!.getBoundingClientRect().right, `the grown tab in view: ${after.right}`);
    });

    it('folds what is on now and next under a button during the event, so the first session still shows', async () => {
      await setViewport({ width: 390, height: 844 });
      const first = program[0];
      const el = agenda(`now="${first.dateBegin + 60}"`);
      await loaded(el);
      const lists = $(el, '[part="now"]')!;
      const button = $<HTMLButtonElement>(el, '.nn')!;
      equal(button.getAttribute('aria-controls'), lists.id);
      equal(button.getAttribute('aria-expanded'), 'false');
      equal(lists.offsetParent, null, 'folded');
      const { now, next } = nowNext(program, first.dateBegin + 60);
      equal(button.textContent!.trim(), `Now / Next (${now.length + next.length})`);
      const top = sessions(el)[0].getBoundingClientRect().top - el.getBoundingClientRect().top;
      assert(top <= 360, `the first session's top: ${top} px below the widget's`);
      await screenshots('agenda-now-folded-phone', () => el.scrollIntoView(), [390]);
      const at = button.getBoundingClientRect();
      button.click();
      await el.updateComplete;
      equal(button.getAttribute('aria-expanded'), 'true');
      assert(lists.offsetParent !== null, 'unfolded');
      const moved = button.getBoundingClientRect();
      equal([moved.left, moved.top], [at.left, at.top], 'the button stays where it was');
      assert(lists.textContent!.includes(first.name), lists.textContent!);
      await expectAccessible(el);
      // Without controls it never folds: no button, the lists shown.
      const bare = agenda(`now="${first.dateBegin + 60}" hide-controls`);
      await loaded(bare);
      equal($(bare, '.nn'), null, 'no button');
      assert($(bare, '[part="now"]')!.offsetParent !== null, 'the lists show');
    });

    it("shows one day's list, not the whole program", async () => {
      await setViewport({ width: 390, height: 844 });
      const el = agenda();
      await loaded(el);
      equal($$(el, '.day').length, 1);
      equal(sessions(el).length, onDay(days[0]).length);
      const all = agenda('hide-controls');
      await loaded(all);
      assert(el.offsetHeight < all.offsetHeight / 2, `${el.offsetHeight} px against ${all.offsetHeight} px for all`);
      all.remove();
      await screenshots('agenda-list-phone', () => el.scrollIntoView(), [390]);
    });
  });

  it("opens on today's day during the event", async () => {
    const during = onDay(days[1])[0].dateBegin + 60;
    const el = agenda(`now="${during}"`);
    await loaded(el);
    equal($(el, '[role="tab"][aria-selected="true"]')!.id, `tab-${days[1]}`);
    equal(
      titles(el),
      onDay(days[1]).map((s) => s.name),
    );
  });

  it("links each session to its page on the event's site", async () => {
    const el = agenda('site="https://events.example.com/demo/summit/"');
    await loaded(el);
    const link = $<HTMLAnchorElement>(el, '.session .title a')!;
    equal(link.textContent, program[0].name);
    equal(link.href, `https://events.example.com/demo/summit/schedule/${program[0].activityID}`);
    const during = agenda(`site="/demo/summit" now="${program[0].dateBegin + 60}"`);
    await loaded(during);
    equal(
      $<HTMLAnchorElement>(during, '[part="now"] a')!.href,
      `${location.origin}/demo/summit/schedule/${program[0].activityID}`,
      'in the now panel too (a path is taken from the page)',
    );
    for (const site of ['javascript:alert(1)', '']) {
      const none = agenda(`site="${site}"`);
      await loaded(none);
      equal($$(none, '.session .title a').length, 0, `no links for site="${site}"`);
    }
    await expectAccessible(el);
  });

  it('keeps the focus on a star when one is taken out of My schedule: the next, the one before, then My schedule', async () => {
    const [a, b, c] = onDay(days[0]);
    favouritesOf(1).set(new Set([a.activityID, b.activityID, c.activityID]));
    try {
      const el = agenda();
      await loaded(el);
      $<HTMLButtonElement>(el, '.mine')!.click();
      await el.updateComplete;
      const stars = () => $$<HTMLButtonElement>(el, '[part="favourite"]');
      const unstar = async (i: number) => {
        stars()[i].focus();
        stars()[i].click();
        await el.updateComplete;
        await el.updateComplete;
        return el.shadowRoot!.activeElement;
      };
      equal(await unstar(0), stars()[0], 'the next session’s star');
      equal(titles(el), [b.name, c.name]);
      equal(await unstar(1), stars()[0], 'the last one out: the star before');
      equal(await unstar(0), $(el, '.mine'), 'none left: My schedule');
      await expectAccessible(el);
    } finally {
      favouritesOf(1).set(new Set());
    }
  });

  it('counts the favourites shown, and marks the days that hold them', async () => {
    const [a, b] = onDay(days[0]);
    const c = onDay(days[2])[0];
    // A stored ID of a session since removed does not count.
    favouritesOf(1).set(new Set([a.activityID, b.activityID, c.activityID, 999_999]));
    try {
      const el = agenda();
      await loaded(el);
      const mine = $$<HTMLButtonElement>(el, 'button').find((x) => x.textContent!.includes('My schedule'))!;
      assert(mine.textContent!.includes('(3)'), mine.textContent!);
      const marks = () => $$(el, '[role="tab"]').map((t) => t.querySelector('.count')?.textContent ?? '');
      equal(marks(), ['★2', '', '★1'], 'which days hold favourites');
      assert($$(el, '[role="tab"]')[0].textContent!.includes('(Favourites: 2)'), 'said to screen readers');
      mine.click();
      await el.updateComplete;
      equal(titles(el), [a.name, b.name]);
      const summary = $(el, '[part="summary"]')!.textContent!;
      assert(summary.includes('2 of 120 sessions'), `says how many show: ${summary}`);
      equal(marks(), ['(2)', '(0)', '(1)'], 'favourites per day');
      await screenshots('agenda-my-schedule', () => el.scrollIntoView());
      await setViewport({ width: 800, height: 600 });
      $$<HTMLButtonElement>(el, '[role="tab"]')[2].click();
      await el.updateComplete;
      equal(titles(el), [c.name]);
      await expectAccessible(el);
    } finally {
      favouritesOf(1).set(new Set());
    }
  });
});

describe('<podium-agenda> live', () => {
  /** An organizer's call; the platform allows a token 10 a second, so a 429 waits and asks again. */
  async function call(name: string, query: Record<string, string | number>, body?: Record<string, string>) {
    for (;;) {
      const res = await admin(name, query, body);
      if (res.status !== 429) return res.data;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  it('follows the program: a moved session is marked, a removed one stays marked cancelled; filter and focus stay', async () => {
    // An event of its own: the other tests count the demo's program.
    const nickname = `live${Date.now()}`;
    const [event] = await call('company.event.bind', { companyID: 1 }, { name: 'Live', nickname });
    const eventID = String(event.eventID);
    const at = (hm: string) => String(Date.parse(`2037-12-28T${hm}:00Z`) / 1000);
    for (const [key, value] of Object.entries({ timezone: 'Europe/Lisbon', dateBegin: at('09:00'), visible: '1' }))
      await call('event.edit', { eventID, key }, { value });
    const ids: string[] = [];
    for (const [name, location, from, to] of [
      ['Talk A', 'Room A', '09:00', '09:30'],
      ['Talk B', 'Room B', '10:00', '10:30'],
    ]) {
      const [a] = await call('activity.create', { eventID }, { name, location, dateBegin: at(from), dateEnd: at(to) });
      ids.push(String(a.activityID));
    }
    // The streams the element opens, to see it close its own.
    const opened: EventSource[] = [];
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        opened.push(this);
      }
    };
    try {
      const el = mount<PodiumAgenda>(`<podium-agenda api="${info.api}" event="${eventID}"></podium-agenda>`);
      await loaded(el);
      equal(titles(el), ['Talk A', 'Talk B']);
      await until(() => opened[0]?.readyState === EventSource.OPEN, 'the stream open');
      const q = $<HTMLInputElement>(el, 'input#q')!;
      type(q, 'Talk');
      await el.updateComplete;
      const star = $$<HTMLButtonElement>(el, 'button.fav')[0];
      star.focus();

      await call('activity.delay', { activityID: ids[0], minutes: 15, subsequent: 0 });
      await until(() => sessions(el)[0].textContent!.includes('Moved'), 'Talk A marked moved');
      assert(sessions(el)[0].textContent!.includes('09:15'), sessions(el)[0].textContent!);
      assert($(el, '[part="summary"]')!.textContent!.includes('Talk A: Moved'), 'said in the live region');
      equal($<HTMLInputElement>(el, 'input#q')!.value, 'Talk', 'the search stays');
      equal(el.shadowRoot!.activeElement, star, 'the focus stays');
      equal(star.getAttribute('aria-label'), 'Favourite “Talk A”', 'on the same session');

      await call('activity.remove', { activityID: ids[1] });
      await until(() => sessions(el)[1]?.textContent!.includes('Cancelled'), 'Talk B marked cancelled');
      equal(titles(el), ['Talk A', 'Talk B'], 'a cancelled session stays in its place');
      assert($(el, '[part="summary"]')!.textContent!.includes('Talk B: Cancelled'), 'said in the live region');
      await expectAccessible(el);

      // Back after more than the change log keeps, the stream says `reset`: the program is read again.
      const reads: string[] = [];
      const nativeFetch = window.fetch;
      window.fetch = (input, init) => {
        reads.push(String(input instanceof Request ? input.url : input));
        return nativeFetch(input, init);
      };
      try {
        opened[0].dispatchEvent(new MessageEvent('reset', { data: '{}', lastEventId: '1' }));
        await until(() => reads.some((u) => u.includes('activity')), 'the program read again after a reset');
        // A burst (what a reconnected stream replays) is one read, not one per message.
        reads.length = 0;
        for (const channel of ['activity/edit', 'activity/edit', 'activity/remove', 'reset'])
          opened[0].dispatchEvent(new MessageEvent(channel, { data: '{}', lastEventId: '2' }));
        await new Promise((r) => setTimeout(r, 1000));
        equal(reads.filter((u) => u.includes('activity')).length, 1, `one read for four messages: ${reads.join(' ')}`);
      } finally {
        window.fetch = nativeFetch;
      }

      // Only while connected.
      el.remove();
      equal(opened.length, 1);
      equal(opened[0].readyState, EventSource.CLOSED, 'closed with the element');
    } finally {
      window.EventSource = Native;
    }
  });
});

/** Identity: reads better where the element is the argument. */
function el<T>(x: T): T {
  return x;
}
