import { callAll } from '../../internal/api.ts';
import './agenda.ts';
import type { PodiumAgenda } from './agenda.ts';
import { setGrant } from '../../stores/grant.ts';
import { parseProgram, type Session } from '../../../../src/shared/schedule/program.ts';
import { $, $$, assert, equal, expectAccessible, mount, setUp, type, until } from '../../../test/helpers.ts';

const info = setUp();
/** The summit's program in the order every view shows it. */
let program: Session[];

const agenda = (attributes = '') =>
  mount<PodiumAgenda>(`<podium-agenda api="${info.api}" event="1" ${attributes}></podium-agenda>`);
const sessions = (el: PodiumAgenda) => $$(el, '.session');
const loaded = (el: PodiumAgenda) => until(() => $(el, '[part="summary"]'), 'the program');
const titles = (el: PodiumAgenda) => $$(el, '.session .title').map((t) => t.textContent!.trim());

describe('<podium-agenda>', () => {
  before(async () => {
    // The whole program, every page of it (the platform answers at most 100 a page).
    program = parseProgram(await callAll(info.api, 'activity.find', { eventID: 1 }));
  });

  it('lists the whole program by day, with day tabs, accessibly', async () => {
    const el = agenda();
    await loaded(el);
    equal(sessions(el).length, program.length);
    const tabs = $$(el, '[role="tab"]');
    equal(tabs.length, 4, 'all days + 3 days');
    equal(tabs[0].getAttribute('aria-selected'), 'true');
    equal($$(el, '.day h2').length, 3);
    assert($(el, '[part="summary"]')!.textContent!.includes('120 sessions'), $(el, '[part="summary"]')!.textContent!);
    await expectAccessible(el);
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
    await expectAccessible(el);
  });

  it('takes filters from attributes: rooms, tags, text, days', async () => {
    const room = agenda('rooms="Main Hall" hide-controls');
    await loaded(el(room));
    equal(sessions(room).length, program.filter((s) => s.location === 'Main Hall').length);
    assert(!$(room, '[part="toolbar"]'), 'no controls');
    const tag = program.find((s) => s.tags.length)!.tags[0].tagID;
    const tagged = agenda(`tags="${tag}"`);
    await loaded(tagged);
    equal(sessions(tagged).length, program.filter((s) => s.tags.some((t) => t.tagID === tag)).length);
    const text = agenda(`q="${program[5].name}"`);
    await loaded(text);
    assert(titles(text).includes(program[5].name), 'found by text');
    assert(sessions(text).length < program.length, 'narrowed');
  });

  it('lets the visitor filter, search, pick a day with the keyboard and clear it all', async () => {
    const el = agenda();
    await loaded(el);
    type($<HTMLSelectElement>(el, '#room')!, 'Studio');
    await el.updateComplete;
    equal(sessions(el).length, program.filter((s) => s.location === 'Studio').length);
    assert(/of 120 sessions/.test($(el, '[part="summary"]')!.textContent!), 'counts the matches');
    type($<HTMLInputElement>(el, '#q')!, 'zzzz no such session');
    await el.updateComplete;
    assert(/No sessions match/.test($(el, '[part="status"]')!.textContent!), 'empty state');
    $$<HTMLButtonElement>(el, '[part="toolbar"] button')
      .find((b) => /Clear filters/.test(b.textContent!))!
      .click();
    await el.updateComplete;
    equal(sessions(el).length, program.length);
    const tabs = $$<HTMLButtonElement>(el, '[role="tab"]');
    tabs[0].focus();
    tabs[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    await el.updateComplete;
    await el.updateComplete;
    const selected = $(el, '[role="tab"][aria-selected="true"]')!;
    equal(el.shadowRoot!.activeElement, selected, 'focus follows the selection');
    equal($$(el, '.day').length, 1, 'one day');
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

  it('keeps favourites in localStorage, filters by them and downloads them as .ics', async () => {
    const el = agenda();
    await loaded(el);
    const changes: CustomEvent[] = [];
    el.addEventListener('podium-favourites-change', (e) => changes.push(e));
    const star = $<HTMLButtonElement>(el, '[part="favourite"]')!;
    equal(star.getAttribute('aria-pressed'), 'false');
    assert(star.getAttribute('aria-label')!.includes(program[0].name), 'named after the session');
    star.click();
    await el.updateComplete;
    equal(star.getAttribute('aria-pressed'), 'true');
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
});

/** Identity: reads better where the element is the argument. */
function el<T>(x: T): T {
  return x;
}
