// "N changes since your last visit" on the schedule page (issue 13): the visitor's saved sessions
// (favourites, localStorage) against the program's changelog (the platform's activity.changes, public
// and CORS) after the version they last saw (podium:seen:{eventID}). A first visit only remembers the
// current version. The notice is a live region (role=status), empty until it tells the count, fixed at
// the foot of the window so that it moves nothing, with a button to dismiss it; a private event's
// changelog needs the grant the page does not hand to scripts, so there is simply no notice.
import { loadFavourites } from '../shared/schedule/favourites.ts';
import { changesOfSaved, loadSeen, saveSeen } from '../shared/schedule/seen.ts';

/** Pages read for one notice at most (100 rows each): a very long absence counts "100+" per page read. */
const MAX_PAGES = 5;

interface Row {
  version: string;
  activityID: string;
}

/** The changes after `since`, newest first; `limit` 1 reads just the newest (a first visit). */
async function changesSince(base: URL, eventID: number, since: number, limit = 100): Promise<Row[] | undefined> {
  const rows: Row[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ eventID: String(eventID), since: String(since), limit: String(limit) });
    if (page > 0) query.set('offset', String(page * 100));
    const res = await fetch(new URL(`activity/changes?${query}`, base), { credentials: 'omit' });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { data?: Row[] };
    const data = Array.isArray(body.data) ? body.data : [];
    rows.push(...data);
    if (data.length < limit || limit < 100) break;
  }
  return rows;
}

/** Fills the live region: the count, linking the changes page, and a button that empties it again. */
function tell(toast: HTMLElement, text: string, hint: string): void {
  const { href = '', dismiss = '' } = toast.dataset;
  const line = document.createElement('p');
  const link = document.createElement('a');
  link.href = href;
  link.textContent = text;
  const more = document.createElement('span');
  more.className = 'visually-hidden';
  more.textContent = ` ${hint}`;
  link.append(more);
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = '×';
  close.setAttribute('aria-label', dismiss);
  close.addEventListener('click', () => {
    toast.classList.remove('open');
    toast.replaceChildren();
  });
  line.append(link, close);
  toast.append(line);
  toast.classList.add('open');
}

async function start(): Promise<void> {
  const root = document.getElementById('schedule');
  const toast = root?.querySelector<HTMLElement>('.changes-toast');
  if (!root || !toast) return;
  const {
    api = '',
    event = '',
    changesSince: many = '',
    changesSinceOne: one = '',
    changesSinceHint: hint = '',
  } = root.dataset;
  const eventID = Number(event);
  if (!api || !Number.isSafeInteger(eventID) || eventID <= 0) return;
  let storage: Storage | undefined;
  try {
    storage = window.localStorage;
  } catch {
    return;
  }
  const base = new URL(api.endsWith('/') ? api : `${api}/`, location.href);
  const seen = loadSeen(storage, eventID);
  const rows = await changesSince(base, eventID, seen ?? 0, seen === undefined ? 1 : 100).catch(() => undefined);
  if (!rows) return;
  const latest = rows.reduce((m, r) => Math.max(m, Number(r.version) || 0), seen ?? 0);
  if (seen !== undefined) {
    const n = changesOfSaved(rows, loadFavourites(storage, eventID));
    if (n > 0) tell(toast, (n === 1 ? one : many).replace('{count}', String(n)), hint);
  }
  // Seen now: the next visit counts from here.
  if (latest !== seen) saveSeen(storage, eventID, latest);
}

void start();
