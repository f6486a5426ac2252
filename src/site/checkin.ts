// The staff check-in page's server side (/{company}/{event}/checkin, docs/site.md "Check-in"): the
// staff token in an HttpOnly cookie, and the page's two JSON endpoints that call the platform with it
// (checklog.checkIn, checklog.stats), at the door the page chose (the entrance or a session's). The
// page's script never sees the token: it talks to this site only (same origin, the CSP's connect-src
// 'self'), and the site calls the platform's public API with the token as a Bearer header, never in a URL.

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isPodiumError, type Activity, type CheckScan, type CheckStats } from '../client/index.ts';
import type { RequestContext } from './context.ts';
import { loadEvent, type EventLoad } from './load.ts';
import { postedFromHere } from './origin.ts';
import { dayKey, formatTime, safeTimeZone } from '../shared/schedule/time.ts';
import { dayLabel } from './dates.ts';
import { serializeCookie } from './grant.ts';

export const CHECKIN_COOKIE = 'podium_checkin';
/** How long a phone stays signed in (a day at the door); the platform's token may outlive it. */
export const CHECKIN_COOKIE_SECONDS = 16 * 3600;
/** A token as the platform makes them (60 characters) or any server of the spec might: printable, short. */
const TOKEN = /^[\w.~+/=-]{16,200}$/;
/** The device's id of a scan (checklog.checkIn's nonce). */
const NONCE = /^[\w-]{8,64}$/;

export type LoadedEvent = Extract<EventLoad, { kind: 'ok' }>;

/**
 * The event of a check-in address, whether public or private: staff sign in with the event's password,
 * so a private event's access code is not asked for. Never stored in the page cache (a staff page).
 */
export async function checkinEvent(
  ctx: RequestContext,
  company: string,
  event: string,
): Promise<LoadedEvent | undefined> {
  const load = await loadEvent(ctx, company, event);
  ctx.cacheable = false;
  if (load.kind === 'notFound') return undefined;
  if (load.kind === 'ok') return { ...load, isPrivate: true };
  // A private event without the visitor's grant: the page shows the event's frame, not its gate. isPrivate
  // keeps it out of search engines and OpenGraph, as every check-in page is (EventShell).
  const { company: c, event: e, links, locale } = load;
  return { kind: 'ok', company: c, event: e, links, locale, timeZone: safeTimeZone(e.timezone), grant: undefined, isPrivate: true }; // prettier-ignore
}

/** The cookie's path: the check-in page and its endpoints only (`/checkin` on the event's own domain). */
export const checkinPath = (ev: LoadedEvent) => `${ev.links.base}/checkin`;

/** The staff token of the request, when its cookie holds one of a token's shape. */
export function staffToken(ctx: RequestContext): string | undefined {
  const token = ctx.cookies.get(CHECKIN_COOKIE);
  return token && TOKEN.test(token) ? token : undefined;
}

/** Set-Cookie keeping the token (HttpOnly, SameSite=Strict, Secure over https), or deleting it (token ''). */
export function tokenCookie(ctx: RequestContext, ev: LoadedEvent, token: string): string {
  const now = Math.floor(ctx.runtime.now() / 1000);
  return serializeCookie(CHECKIN_COOKIE, token, {
    path: checkinPath(ev),
    secure: ctx.https,
    expires: token ? now + CHECKIN_COOKIE_SECONDS : 0,
  }).replace('SameSite=Lax', 'SameSite=Strict');
}

/** A JSON answer of the endpoints: never stored, never sniffed. */
export function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra },
  });
}

/** The platform's refusal as the endpoints pass it on: its status and `NNN message` line. */
export function refusal(err: unknown): Response {
  if (!isPodiumError(err)) throw err;
  // The platform down or failing: 503, which the page takes as "try again later" (the scan stays queued).
  const status = err.status < 500 ? err.status : 503;
  const extra: Record<string, string> = err.retryAfter ? { 'retry-after': String(err.retryAfter) } : {};
  return json(status, { error: `${err.status} ${err.message}` }, extra);
}

/** What the page's script is told of a scan (no ids it does not need). */
export function scanView(row: CheckScan) {
  return { result: row.result, reason: row.reason, name: row.name, replayed: row.replayed, nonce: row.nonce, date: row.date }; // prettier-ignore
}

/** A session's door as the page offers it: its id and a label (day, start time, name). */
export interface Door {
  activityID: string;
  label: string;
}

/** The sessions as doors, in the order of the program (start, then name). */
export function doorsOf(sessions: readonly Activity[], timeZone: string, locale: string): Door[] {
  return [...sessions]
    .sort((a, b) => Number(a.dateBegin) - Number(b.dateBegin) || a.name.localeCompare(b.name))
    .map((s) => {
      const begin = Number(s.dateBegin);
      const when = begin > 0 ? `${dayLabel(dayKey(begin, timeZone), timeZone, locale, 'short')} ${formatTime(begin, timeZone, locale)} · ` : ''; // prettier-ignore
      return { activityID: s.activityID, label: `${when}${s.name}` };
    });
}

/**
 * The event's sessions as doors, read with the staff token (activity.find) and kept a minute per event
 * and token (by its hash): a page load, the service worker's copy of it and a reload read them once, so
 * a phone's burst of calls stays under the platform's per-token limit. No sessions readable: none.
 */
const doorMemo = new LRUCache<string, Door[]>({ max: 1000, ttl: 60_000 });
export async function doorsFor(ctx: RequestContext, ev: LoadedEvent, token: string): Promise<Door[]> {
  const eventID = Number(ev.event.eventID);
  const key = `${ev.locale}:${tokenKey(eventID, token)}`;
  let doors = doorMemo.get(key);
  if (doors === undefined) {
    try {
      doors = doorsOf(await ctx.runtime.client.activityFindAs(token, eventID, ctx.call, 1000), ev.timeZone, ev.locale);
    } catch (err) {
      if (!isPodiumError(err)) throw err;
      return []; // not kept: the next load asks again
    }
    doorMemo.set(key, doors);
  }
  return doors;
}

/** An event and a token as a memo's key: the token's hash, never the token itself. */
const tokenKey = (eventID: number, token: string) =>
  `${eventID}:${createHash('sha256').update(token).digest('base64url')}`;

/**
 * checklog.stats of the event with the staff token, one platform call shared for a second by every read
 * of it: a page load, the service worker's copy of the same page and the script's first read of the
 * count come together, and each asked the platform, so a reload, a door picked and a scan went past the
 * token's 10 calls a second and the scan was refused (429). A scan sent through this site drops the
 * shared answer (the next count includes it); another phone's scans show within that second.
 */
const statsMemo = new LRUCache<string, Promise<CheckStats[]>>({ max: 1000, ttl: 1000 });
export function statsFor(ctx: RequestContext, token: string, eventID: number): Promise<CheckStats[]> {
  const key = tokenKey(eventID, token);
  let rows = statsMemo.get(key);
  if (rows === undefined) {
    const asked = ctx.runtime.client.checkStats(token, eventID, ctx.call);
    // A refusal is not shared: the next read asks again.
    asked.catch(() => statsMemo.peek(key) === asked && statsMemo.delete(key));
    statsMemo.set(key, (rows = asked));
  }
  return rows;
}

/** After a scan with the token: the next count is asked anew. */
export function forgetStats(token: string, eventID: number): void {
  statsMemo.delete(tokenKey(eventID, token));
}

/** A door's id as the page sends it: 0 (or none) the event's entrance, else a session's activityID. */
export function doorOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '' || value === 0 || value === '0') return 0;
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * A scan posted by the page's script: JSON { code, date, nonce, activityID? } (activityID: a session's
 * door; none or 0, the entrance); undefined when malformed.
 */
export function parseScan(
  body: unknown,
): { code: string; date: number; nonce: string; activityID?: number } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, date, nonce, activityID } = body as Record<string, unknown>;
  if (typeof code !== 'string' || code.trim() === '' || code.length > 200) return undefined;
  if (typeof date !== 'number' || !Number.isSafeInteger(date) || date <= 0) return undefined;
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) return undefined;
  const door = doorOf(activityID);
  if (door === undefined) return undefined;
  return door === 0 ? { code: code.trim(), date, nonce } : { code: code.trim(), date, nonce, activityID: door };
}

/**
 * Whether an endpoint call comes from the page itself: same origin by Fetch Metadata (or Origin), and for
 * a POST a JSON body — which no form of another site can send without a CORS preflight this site never
 * answers. (The cookie is SameSite=Strict too.)
 */
export function fromThePage(request: Request, ctx: RequestContext): boolean {
  if (!postedFromHere(request.headers, ctx.hostname)) return false;
  if (request.method !== 'POST') return true;
  return (request.headers.get('content-type') ?? '').split(';')[0].trim() === 'application/json';
}
