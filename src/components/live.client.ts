// Live updates (issue 13) of the schedule page, a session's page and the event's home. Without
// JavaScript the pages stay as served; with it:
// - the browser follows the platform's push.subscribe (Server-Sent Events) for the event itself, on the
//   public API origin the CSP's connect-src allows: the platform's cap per address counts the visitor,
//   and the site holds no stream per visitor;
// - on a change (those within DEBOUNCE_MS make one), the page reads its own address again. The site's
//   page cache follows the same change stream, so the answer is fresh within ~100 ms of the commit; one
//   that still shows the old sessions is asked again (RETRIES times at most, RETRY_MS apart: with the
//   stream on another process than the site's, the message may come before the site's cache moved).
//   Each element marked data-live="key" is swapped for the fresh one of that key (one missing there, as
//   on a 404 page, is kept); data-live-text elements take the fresh text. The filters are in the URL,
//   so the fresh page has them; the regions' scroll and the focus are put back, and the window scrolls
//   so that what was in view stays where it was;
// - sessions are the [data-id] elements of those regions (data-b, data-e, data-room): one whose time or
//   room changed is marked "Moved"; one removed (activity/remove) stays where it was, marked
//   "Cancelled"; one an edit took out of the view (another day, a room filtered out) stays, marked
//   "Moved". Marks last MARK_MS; the one live region (Live.astro) says what changed;
// - under Trusted Types: the fresh page is parsed by XMLHttpRequest (responseType 'document'), not by a
//   string sink (innerHTML, DOMParser), and its nodes are adopted.
// The page's own scripts decorate the new nodes (favourite stars, zones) on the 'podium:live' event.

const MARK_MS = 5 * 60_000;
const DEBOUNCE_MS = 300;
const RETRY_MS = 250;
const RETRIES = 3;
const CHANNELS = ['activity/create', 'activity/edit', 'activity/remove', 'event/edit'];

type Kind = 'moved' | 'cancelled';
/** A mark on a session; `node` is the old element kept in place of one that left the page. */
interface Mark {
  kind: Kind;
  until: number;
  node?: HTMLElement;
}
/** Where a kept node goes back after a swap: after or before a neighbour, else atop its region. */
interface Anchor {
  key: string;
  prev?: string;
  next?: string;
}

const ITEMS = '[data-live] [data-id]:not(.live-gone), [data-live][data-id]:not(.live-gone)';
const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/** The sessions shown, by id. */
function itemsOf(root: ParentNode): Map<string, HTMLElement> {
  return new Map([...root.querySelectorAll<HTMLElement>(ITEMS)].map((el) => [el.dataset.id!, el]));
}
const nameOf = (el: HTMLElement) => el.dataset.name ?? el.querySelector('a')?.textContent ?? '';
const placeOf = (el: HTMLElement) => `${el.dataset.b}|${el.dataset.e}|${el.dataset.room}`;
/** What a re-read must change to be newer than what is shown. */
const signature = (root: ParentNode) =>
  [...itemsOf(root)].map(([id, el]) => `${id}|${placeOf(el)}|${nameOf(el)}`).join('\n');

/** The page at this address, parsed without a Trusted Types sink; undefined when it could not be read. */
function load(): Promise<Document | undefined> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', location.href);
    xhr.responseType = 'document';
    xhr.setRequestHeader('cache-control', 'no-cache');
    xhr.onload = () => resolve(xhr.status === 200 || xhr.status === 404 ? (xhr.responseXML ?? undefined) : undefined);
    xhr.onerror = () => resolve(undefined);
    xhr.send();
  });
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(status: HTMLElement): void {
  const text = status.dataset;
  const marks = new Map<string, Mark>();
  const heard = new Map<string, string>(); // activity id → its last channel, since the last swap
  let timer: ReturnType<typeof setTimeout> | undefined;
  let busy = false;
  let again = false;

  const api = text.api!.endsWith('/') ? text.api! : `${text.api}/`;
  const query = new URLSearchParams({ eventID: text.event!, channels: CHANNELS.join(',') });
  const stream = new EventSource(new URL(`push/subscribe?${query}`, new URL(api, location.href)));
  const heardOne = (e: MessageEvent<string>) => {
    const { activityID } = JSON.parse(e.data) as { activityID?: string };
    // A session's page reads itself again for its own session only (and for the event's changes).
    if (activityID && text.activity && activityID !== text.activity) return;
    if (activityID) heard.set(activityID, e.type);
    soon();
  };
  for (const channel of CHANNELS) stream.addEventListener(channel, heardOne);
  stream.addEventListener('reset', soon);

  function soon(): void {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), DEBOUNCE_MS);
  }

  async function run(): Promise<void> {
    if (busy) return void (again = true);
    busy = true;
    try {
      const channels = new Map(heard);
      heard.clear();
      const shown = signature(document);
      for (let attempt = 0; attempt <= RETRIES; attempt++) {
        if (attempt > 0) await wait(RETRY_MS);
        const doc = await load();
        if (!doc) return;
        if (signature(doc) !== shown || attempt === RETRIES) return swap(doc, channels);
      }
    } finally {
      busy = false;
      if (again) {
        again = false;
        soon();
      }
    }
  }

  function badge(el: HTMLElement, kind: Kind | undefined): void {
    el.classList.toggle('is-moved', kind === 'moved');
    el.classList.toggle('is-cancelled', kind === 'cancelled');
    el.querySelector('.change-badge')?.remove();
    if (!kind) return;
    const b = document.createElement('span');
    b.className = `badge change-badge ${kind}`;
    b.textContent = text[kind] ?? kind;
    (el.querySelector('.when, .cell-when') ?? el).append(b);
  }

  function mark(id: string, kind: Kind, node?: HTMLElement): void {
    const until = Date.now() + MARK_MS;
    marks.set(id, { kind, until, node });
    setTimeout(() => {
      const m = marks.get(id);
      if (!m || m.until > Date.now()) return;
      marks.delete(id);
      if (m.node) m.node.remove();
      else {
        const el = itemsOf(document).get(id);
        if (el) badge(el, undefined);
      }
    }, MARK_MS + 50);
  }

  function anchorOf(node: HTMLElement): Anchor {
    const sibling = (el: Element | null, step: 'previousElementSibling' | 'nextElementSibling') => {
      while (el && !(el instanceof HTMLElement && el.dataset.id && !el.classList.contains('live-gone'))) el = el[step];
      return el instanceof HTMLElement ? el.dataset.id : undefined;
    };
    return {
      key: node.closest<HTMLElement>('[data-live]')?.dataset.live ?? '',
      // A grid's cell has no neighbours of its own: it goes to the list of those gone.
      prev: node.closest('td') ? undefined : sibling(node.previousElementSibling, 'previousElementSibling'),
      next: node.closest('td') ? undefined : sibling(node.nextElementSibling, 'nextElementSibling'),
    };
  }

  /** Puts a session that left the page back: beside its old neighbour, else atop its region. */
  function putBack(node: HTMLElement, a: Anchor): boolean {
    const items = itemsOf(document);
    const prev = a.prev ? items.get(a.prev) : undefined;
    const next = a.next ? items.get(a.next) : undefined;
    if (prev) prev.after(node);
    else if (next) next.before(node);
    if (prev || next) return true;
    const region = document.querySelector<HTMLElement>(`[data-live="${a.key}"]`);
    if (!region) return false;
    if (node.tagName === 'LI' && /^[OU]L$/.test(region.tagName)) {
      region.prepend(node);
      return true;
    }
    let list = region.querySelector(':scope > .live-gone-list');
    if (!list) {
      list = document.createElement('ul');
      list.className = 'live-gone-list';
      region.prepend(list);
    }
    const li = node.tagName === 'LI' ? node : document.createElement('li');
    if (li !== node) li.append(node);
    list.append(li);
    return true;
  }

  /** Where the focus is, as a region, a session and the index among their focusable elements. */
  function focusOf(): { key: string; id?: string; index: number } | undefined {
    const active = document.activeElement;
    const region = active?.closest<HTMLElement>('[data-live]');
    if (!active || !region) return undefined;
    const item = active.closest<HTMLElement>('[data-id]');
    const scope = item ?? region;
    return {
      key: region.dataset.live!,
      id: item?.dataset.id,
      index: [scope, ...scope.querySelectorAll(FOCUSABLE)].indexOf(active),
    };
  }

  function swap(doc: Document, channels: Map<string, string>): void {
    const before = itemsOf(document);
    const after = itemsOf(doc);
    const focus = focusOf();
    const { scrollX, scrollY } = window;
    // The sessions in view, top first, and where they are on the screen (see the end).
    const inView = [...before]
      .map(([id, el]) => [id, el.getBoundingClientRect().top] as const)
      .filter(([, top]) => top >= 0 && top < window.innerHeight);
    // The sessions that leave the page, and those kept from earlier swaps, with where they go back.
    const keep: [string, HTMLElement, Anchor][] = [];
    for (const [id, m] of marks) if (m.node) keep.push([id, m.node, anchorOf(m.node)]);
    const said: string[] = [];
    for (const [id, el] of before) {
      if (after.has(id)) continue;
      const cancelled = channels.get(id) === 'activity/remove';
      keep.push([id, el, anchorOf(el)]);
      el.classList.add('live-gone');
      mark(id, cancelled ? 'cancelled' : 'moved', el);
      said.push((cancelled ? text.cancelledNamed : text.movedAway)!.replace('{name}', nameOf(el)));
    }
    const scrolls = new Map<string, [number, number]>();
    for (const region of document.querySelectorAll<HTMLElement>('[data-live]')) {
      const fresh = doc.querySelector(`[data-live="${region.dataset.live}"]`);
      if (!fresh) continue;
      scrolls.set(region.dataset.live!, [region.scrollLeft, region.scrollTop]);
      region.replaceWith(document.adoptNode(fresh));
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-live-text]')) {
      const fresh = doc.querySelector(`[data-live-text="${el.dataset.liveText}"]`)?.textContent;
      if (fresh && fresh !== el.textContent) el.textContent = fresh;
    }
    window.scrollTo(scrollX, scrollY);
    for (const [key, [left, top]] of scrolls) {
      const region = document.querySelector(`[data-live="${key}"]`);
      if (region) region.scrollTo(left, top);
    }
    for (const [id, node, anchor] of keep) {
      if (putBack(node, anchor)) continue;
      marks.delete(id);
      node.remove();
    }
    // The page's scripts decorate what is new (stars, now/next, the visitor's zone).
    document.dispatchEvent(new CustomEvent('podium:live'));
    const now = itemsOf(document);
    for (const [id, el] of now) {
      const old = before.get(id);
      const name = nameOf(el);
      if (!old) said.push(text.added!.replace('{name}', name));
      else if (placeOf(old) !== placeOf(el)) {
        mark(id, 'moved');
        const when = el.querySelector('time')?.textContent ?? '';
        said.push(
          text
            .movedTo!.replace('{name}', name)
            .replace('{when}', when)
            .replace('{room}', el.dataset.room || text.noRoom!),
        );
      } else if (nameOf(old) !== name || channels.has(id)) said.push(text.changed!.replace('{name}', name));
    }
    for (const [id, m] of marks) {
      const el = m.node ?? now.get(id);
      if (el) badge(el, m.kind);
    }
    // What the visitor was looking at stays put: the first session in view that neither moved nor left
    // keeps its place on the screen, whatever came or went above it.
    for (const [id, top] of inView) {
      const el = now.get(id);
      if (!el || placeOf(el) !== placeOf(before.get(id)!)) continue;
      window.scrollBy(0, el.getBoundingClientRect().top - top);
      break;
    }
    if (focus) {
      const region = document.querySelector<HTMLElement>(`[data-live="${focus.key}"]`);
      const scope = focus.id ? document.querySelector<HTMLElement>(`[data-live] [data-id="${focus.id}"]`) : region;
      const target = scope && [scope, ...scope.querySelectorAll<HTMLElement>(FOCUSABLE)][focus.index];
      (target ?? region)?.focus({ preventScroll: true });
    }
    if (said.length > 0) status.textContent = said.join('. ');
  }
}

const status = document.getElementById('live-status');
if (status?.dataset.api && status.dataset.event && typeof EventSource === 'function') start(status);
