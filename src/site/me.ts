// "My registration" (/{company}/{event}/me, `/me` on the event's own domain; docs/site.md): an attendee's
// own page, reached through the one-time link person.requestLink e-mails. Everything is a form posted to
// the page itself (no JavaScript needed), Post/Redirect/Get after each change; every call goes to the
// platform's public API with the attendee's token (attendee.ts) in the Authorization header.
//
// - `?code=…` never spends the code on GET (mail scanners open links): it shows "Continue", a POST that
//   calls person.signInLink, keeps the token in the event's attendee cookie and goes (303) to /me.
// - Signed out: the "get your link" form (person.requestLink), the same answer whatever the address.
// - Signed in: the ticket (qrCode as a QR), dates and venue, the place in the event's waiting list, an
//   .ics, a printable view, the sessions with enrol/leave, the form's answers (editable while registration
//   is open), the guests, RSVP, cancel (with a confirmation step), sign out (person.signOut, then the
//   cookie goes).
//
// The platform allows RATE_LIMIT_TOKEN (10) calls a second per token (spec §8), and every call here is
// one with the attendee's token, so the page spends few: a page is event.person.get and activity.find
// (event.guest.find only when the event takes guests; the form's fields are the public, shared form.get
// unless the event is private without a grant), and enrol, leave, RSVP and removing a guest are the
// action's one call before the redirect (the platform checks the token; only a refusal reads who is
// signed in). Enrol, leave and reload in quick succession stay well under the limit.

import type { AstroGlobal } from 'astro';
import { isPodiumError, type Activity, type Attendee, type Guest, type RegistrationForm } from '../client/index.ts';
import { t, tp, type Locale, type MessageKey } from '../shared/i18n/messages.ts';
import { ENROL_REFUSED, REFUSED, refusedAs, type Refused } from '../shared/refused.ts';
import { formatRefusal } from '../shared/answer-check.ts';
import { formatRange } from '../shared/schedule/time.ts';
import {
  ATTENDEE_COOKIE,
  attendeeCookieOptions,
  attendeeCookieValue,
  attendeeToken,
  nextWithin,
  revokeAttendee,
  signedIn,
} from './attendee.ts';
import type { LoadedEvent } from './checkin.ts';
import { postedFromHere } from './origin.ts';
import { GRANT_COOKIE, grantCookieOptions, grantInfo, usableGrant } from './grant.ts';
import { eventDates } from './pages.ts';
import { enrolRefusal } from './me-refusals.ts';
import { placeLine } from '../shared/place.ts';
import { qrSvg } from './qr-svg.ts';

/** The actions answered by their one call and a redirect, without reading who is signed in first. */
const QUICK = new Set(['enrol', 'leave', 'rsvp', 'guest']);
/** What the platform's one-time codes look like (base64url); anything else cannot be one. */
const CODE = /^[A-Za-z0-9_-]{16,200}$/;
/** The platform's own e-mail rule, checked here first to answer next to the field. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX = 320;
const ID = /^\d{1,15}$/;
/** The longest answer the form takes (a textarea); the platform says the exact rule of each type. */
export const ANSWER_MAX = 10_000;

export interface SessionItem {
  id: string;
  name: string;
  href: string;
  when: string;
  room: string;
  state: 'enrolled' | 'waiting' | 'none';
  /** Place in the waiting list (waiting only). */
  position: string;
  /** The attendee may not enrol or leave themself (lockOperations, or a general activity's own rule). */
  locked: boolean;
  /** It is over: nothing to enrol in or leave (the platform would take it; the page does not offer it). */
  ended: boolean;
}

export interface FieldItem {
  id: string;
  name: string;
  type: string;
  options: string[];
  required: boolean;
  /** The answer as stored (multiselect: its chosen options). */
  value: string;
  chosen: string[];
  error?: string;
}

export interface MeView {
  name: string;
  email: string;
  approved: boolean;
  /** The place in the event's waiting list ('' when approved, or when the platform does not say). */
  position: string;
  /** The check-in code and its QR picture ('' when the record has none). */
  code: string;
  qr: string;
  dates: string;
  venue: string;
  ics: string;
  /** The answer the RSVP's radios show: '1' yes, '0' no (only right after saving it), '' none. */
  rsvp: string;
  sessions: SessionItem[];
  fields: FieldItem[];
  answersOpen: boolean;
  guests: Guest[];
}

export type MeState =
  | { kind: 'ask'; email: string; emailError?: string; error?: string; notice?: string }
  | { kind: 'sent' }
  | { kind: 'continue'; code: string; error?: string }
  | { kind: 'cancelled' }
  | { kind: 'notAttendee' }
  /** The platform could not read the registration now (too many calls, unreachable): try again. */
  | { kind: 'busy' }
  | { kind: 'confirmCancel' }
  | { kind: 'me'; view: MeView; print: boolean; notice?: string; error?: string; errorAt?: string };

/** `next`: the page of the event a sign-in link leads back to, relative to the event ('' for /me). */
export type MeResult = { state: MeState; next?: string } | { redirect: string };

/** Set by a cancellation for the page it redirects to (a minute, this event's /me only): see its use. */
const CANCELLED_COOKIE = 'podium_cancelled';
const cancelledCookieOptions = (base: string, secure: boolean) =>
  ({ path: `${base}/me`, httpOnly: true, sameSite: 'lax', secure, maxAge: 60 }) as const;

/** Where the page sends its visitor after a change: back to /me with what was done, at its notice. */
function done(base: string, what: string, id?: string): { redirect: string } {
  const q = new URLSearchParams({ done: what });
  if (id) q.set('id', id);
  return { redirect: `${base}/me?${q.toString()}#notice` };
}

/** The minutes a 429 asks to wait (Retry-After, at least one). */
const minutesOf = (retryAfter: number | undefined) => Math.ceil(Math.max(1, retryAfter ?? 60) / 60);

/**
 * One refusal of an action, as the page says it: in its language when known (a locked session, one
 * limited to lists, a chain's limit: me-refusals.ts), else the platform's own line.
 */
function actionError(locale: Locale, err: unknown): string {
  if (!isPodiumError(err)) throw err;
  if (err.status === 409 || err.status === 403 || err.status === 400)
    return enrolRefusal(locale, err.message) ?? err.message;
  return t(locale, 'me.failed');
}

/**
 * The platform's refusals of an answer the page says in its language, by what they mean (src/shared/
 * refused.ts). A URL field's rare one, which the browser's own check comes before, stays in the
 * platform's words (the catalogue's size bound, tests/shared/browser-safe.test.ts).
 */
const ANSWER_REFUSALS: Partial<Record<Refused, MessageKey>> = {
  empty: 'me.answerMissing',
  unchecked: 'me.answerMissing',
  date: 'me.answerInvalid.date',
  number: 'me.answerInvalid.number',
  telephone: 'me.answerInvalid.telephone',
  email: 'form.fieldInvalid.email', // the registration widget's own words
};

/** One answer's refusal as the page says it: in its language when known, else the platform's words. */
function answerRefusal(locale: Locale, said: string): string {
  const as = refusedAs(said);
  const key = as && ANSWER_REFUSALS[as];
  return key ? t(locale, key) : `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
}

/** The multiselect answer as its options (a JSON list, or options separated by commas). */
function chosenOf(type: string, value: string): string[] {
  if (type !== 'multiselect' || value === '') return [];
  if (value.trimStart().startsWith('[')) {
    try {
      const list = JSON.parse(value) as unknown;
      if (Array.isArray(list)) return list.map(String);
    } catch {
      // not JSON: commas below
    }
  }
  return value.split(',').map((v) => v.trim());
}

/** The answers of a posted form, by field (a multiselect's options joined as a JSON list). */
function postedAnswers(form: FormData, fields: RegistrationForm['fields']): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of fields) {
    const name = `f${f.feedbackID}`;
    if (f.type === 'multiselect') out.set(f.feedbackID, JSON.stringify(form.getAll(name).map(String).slice(0, 200)));
    else if (f.type === 'checkbox') out.set(f.feedbackID, form.get(name) === '1' ? '1' : '0');
    else out.set(f.feedbackID, String(form.get(name) ?? '').slice(0, ANSWER_MAX));
  }
  return out;
}

interface Loaded {
  token: string;
  attendee: Attendee;
  activities: Activity[];
  positions: Map<string, string>;
  form: RegistrationForm | undefined;
  guests: Guest[];
}

/**
 * The registration form (its fields, whether it is open): the same for every reader who may see the
 * event, so the public form.get — shared and kept by the site, no call with the attendee's token — when
 * the event is public or the visitor holds its grant; else (a private event's attendee without the access
 * code) with the token.
 */
async function formOf(astro: AstroGlobal, ev: LoadedEvent, token: string): Promise<RegistrationForm> {
  const ctx = astro.locals.podium;
  const client = ctx.runtime.client;
  const eventID = Number(ev.event.eventID);
  if (ev.event.public === '1' || ev.grant !== undefined) {
    try {
      return await client.formGet(eventID, ev.grant, ctx.call);
    } catch (err) {
      if (!(isPodiumError(err) && (err.status === 403 || err.status === 404))) throw err;
    }
  }
  return client.formGetAs(eventID, token, ctx.call);
}

/**
 * The program with the attendee's state in each session: the public program (shared and kept by the
 * site, as formOf) with the attendee's own sessions read with their token (activity.find
 * selection=enrolled: approved or waiting, and the place in the queue) — one call with the token whatever
 * the program's size. A private event's attendee without the grant: the whole program with the token.
 */
async function sessionsOf(astro: AstroGlobal, ev: LoadedEvent, token: string): Promise<Activity[]> {
  const ctx = astro.locals.podium;
  const client = ctx.runtime.client;
  const eventID = Number(ev.event.eventID);
  let program: Activity[] | undefined;
  if (ev.event.public === '1' || ev.grant !== undefined) {
    try {
      program = await client.activityFind(eventID, ev.grant, ctx.call);
    } catch (err) {
      if (!(isPodiumError(err) && (err.status === 403 || err.status === 404))) throw err;
    }
  }
  if (!program) return client.activityFindAs(token, eventID, ctx.call);
  const mine = new Map(
    (await client.activityFindAs(token, eventID, ctx.call, undefined, 'enrolled')).map((a) => [a.activityID, a]),
  );
  const merged = program.map((a) => mine.get(a.activityID) ?? { ...a, approved: '-1', position: '0' });
  // A session of theirs the public program does not show (hidden since): still theirs to see and leave.
  const shown = new Set(program.map((a) => a.activityID));
  return [...merged, ...[...mine.values()].filter((a) => !shown.has(a.activityID))];
}

/**
 * Everything /me shows: what is the attendee's read with their token (each call of its own: one person's
 * answers), the rest shared (formOf). The guests are asked only of an event that takes guests.
 */
async function loadMine(astro: AstroGlobal, ev: LoadedEvent, token: string, attendee: Attendee): Promise<Loaded> {
  const ctx = astro.locals.podium;
  const client = ctx.runtime.client;
  const eventID = Number(ev.event.eventID);
  const optional = <T>(p: Promise<T>, fallback: T) =>
    p.catch((err: unknown) => {
      if (!isPodiumError(err)) throw err;
      console.error('site: /me could not read a part of the registration:', err.operation, err.status);
      return fallback;
    });
  const formAndGuests = optional(formOf(astro, ev, token), undefined).then(async (form) => {
    const takesGuests = form === undefined || Number(form.guestsForMember) > 0;
    const guests = takesGuests ? await optional(client.guestFindMine(eventID, token, ctx.call), [] as Guest[]) : [];
    return [form, guests] as const;
  });
  const [activities, [form, guests]] = await Promise.all([
    optional(sessionsOf(astro, ev, token), [] as Activity[]),
    formAndGuests,
  ]);
  // activity.find's rows carry the reader's waiting-list place; a platform without it (''): asked one by one.
  const positions = new Map<string, string>();
  const unknown = activities.filter((a) => a.approved === '0' && !(Number(a.position) > 0));
  for (const a of activities) if (Number(a.position) > 0) positions.set(a.activityID, a.position);
  await Promise.all(
    unknown.map(async (a) => {
      const row = await optional(client.activityPersonMine(Number(a.activityID), token, ctx.call), undefined);
      if (row) positions.set(a.activityID, row.position);
    }),
  );
  return { token, attendee, activities, positions, form, guests };
}

function viewOf(
  ev: LoadedEvent,
  data: Loaded,
  now: number,
  answers?: Map<string, string>,
  errors?: Map<string, string>,
): MeView {
  const { event, links, locale, timeZone } = ev;
  const a = data.attendee;
  const sessions: SessionItem[] = data.activities
    .filter((s) => Number(s.dateBegin) > 0)
    .sort((x, y) => Number(x.dateBegin) - Number(y.dateBegin) || x.name.localeCompare(y.name))
    .map((s) => {
      const begin = Number(s.dateBegin);
      const end = Math.max(begin, Number(s.dateEnd) || begin);
      return {
        id: s.activityID,
        name: s.name,
        href: links.activity(s.activityID),
        when: `${eventDates({ ...event, dateBegin: String(begin), dateEnd: '' }, timeZone, locale)}, ${formatRange(begin, end, timeZone, locale)}`,
        room: s.location,
        state: s.approved === '1' ? 'enrolled' : s.approved === '0' ? 'waiting' : 'none',
        position: data.positions.get(s.activityID) ?? '',
        locked: s.lockOperations === '1',
        // A session without an end time is not taken to be over once it starts.
        ended: Number(s.dateEnd) > 0 && end <= now,
      };
    });
  const stored = new Map((a.feedbacks ?? []).map((f) => [f.feedbackID, f.value]));
  const fields: FieldItem[] = (data.form?.fields ?? []).map((f) => {
    const value = answers?.get(f.feedbackID) ?? stored.get(f.feedbackID) ?? '';
    return {
      id: f.feedbackID,
      name: f.name,
      type: f.type,
      options: f.options.map((o) => o.value),
      required: f.required === '1',
      value,
      chosen: chosenOf(f.type, value),
      error: errors?.get(f.feedbackID),
    };
  });
  const enrolled = sessions.filter((s) => s.state !== 'none').map((s) => s.id);
  const venue = placeLine(event.placeName, event.address, event.city);
  return {
    name: a.name || a.firstName || a.email,
    email: a.email,
    approved: a.approved === '1',
    position: a.approved === '0' && Number(a.position) > 0 ? a.position : '',
    code: a.qrCode,
    qr: a.qrCode ? qrSvg(a.qrCode, t(locale, 'me.qrLabel')) : '',
    dates: eventDates(event, timeZone, locale),
    venue,
    // The site's own iCalendar (schedule.ics): the attendee's sessions, or the whole program when none.
    ics: enrolled.length > 0 ? `${links.ics}?ids=${enrolled.join(',')}` : links.ics,
    rsvp: a.rsvp,
    sessions,
    fields,
    // As the platform decides: the form's switch and window (a full event still takes changed answers).
    answersOpen: data.form?.acceptsRegistrations === '1' || data.form?.reason === 'full',
    guests: data.guests,
  };
}

/** The notice of `?done=` after a change (Post/Redirect/Get), in the page's language. */
function noticeOf(locale: Locale, params: URLSearchParams, view: MeView): string | undefined {
  const what = params.get('done');
  const session = view.sessions.find((s) => s.id === params.get('id'));
  switch (what) {
    case 'enrolled':
      if (!session) return undefined;
      return session.state === 'waiting'
        ? t(locale, 'me.waitingDone', { name: session.name, position: session.position || '?' })
        : t(locale, 'me.enrolledDone', { name: session.name });
    case 'left':
      return session ? t(locale, 'me.leftDone', { name: session.name }) : undefined;
    case 'answers':
      return t(locale, 'me.answersSaved');
    case 'rsvp':
      return t(locale, 'me.rsvpSaved');
    case 'guest':
      return t(locale, 'me.guestRemoved');
    case 'linkUsed':
      return t(locale, 'me.linkUsedSignedIn');
    default:
      return undefined;
  }
}

/**
 * The /me page's work for one request: the action of a POST (each answered by a redirect, or the page
 * again with its error and what was typed), else what the page shows now.
 */
export async function mePage(astro: AstroGlobal, ev: LoadedEvent): Promise<MeResult> {
  const post = astro.request.method === 'POST';
  const form = post ? await astro.request.formData().catch(() => undefined) : undefined;
  // The page a sign-in link leads back to (the sign-in page's `next`, relative to the event), through the
  // "get your link" form, the e-mail and the link's Continue.
  const raw = String((post ? form?.get('next') : astro.url.searchParams.get('next')) ?? '');
  const base = ev.links.base;
  // Safe alone (no `//host`, no dot segments) and within the event once put after its address.
  const next = nextWithin(raw, '', '') !== '' && nextWithin(`${base}${raw}`, base, '') !== '' ? raw : '';
  const result = await meAnswer(astro, ev, form, next);
  return 'redirect' in result ? result : { ...result, next };
}

async function meAnswer(
  astro: AstroGlobal,
  ev: LoadedEvent,
  form: FormData | undefined,
  /** Where a sign-in link leads once spent ('' for /me). */
  next: string,
): Promise<MeResult> {
  const ctx = astro.locals.podium;
  const { links, locale } = ev;
  const base = links.base;
  const eventID = Number(ev.event.eventID);
  const client = ctx.runtime.client;
  const res = astro.response;
  res.headers.set('cache-control', 'private, no-store');
  // A code may be in the address: it is never sent on to what the page loads or links.
  res.headers.set('referrer-policy', 'no-referrer');
  ctx.cacheable = false;
  const setCookie = (token: string) =>
    astro.cookies.set(
      ATTENDEE_COOKIE,
      token ? attendeeCookieValue(eventID, token) : '',
      attendeeCookieOptions(base, ctx.https, ctx.runtime.now(), token !== ''),
    );
  /**
   * Signed out or cancelled: the token's cookie goes, and a private event's grant with it (the sign-in
   * link may have set it; a phone may be shared, and the grant cannot be revoked at the platform).
   */
  const signOutHere = () => {
    setCookie('');
    astro.cookies.delete(GRANT_COOKIE, { path: base || '/' });
  };

  const post = astro.request.method === 'POST';
  const action = String(form?.get('action') ?? '');
  if (post && !postedFromHere(astro.request.headers, ctx.hostname)) {
    res.status = 403;
    return { state: { kind: 'ask', email: '', error: t(locale, 'me.otherSite') } };
  }

  // ---- signed out: the link's Continue, asking for a link, signing out ----
  if (action === 'continue') {
    const code = String(form?.get('code') ?? '').trim();
    if (!CODE.test(code)) {
      res.status = 400;
      return { state: { kind: 'ask', email: '', error: t(locale, 'me.linkUsed') } };
    }
    try {
      const signed = await client.personSignInLink(eventID, code, ctx.call);
      setCookie(signed.tokenID);
      // A private event's attendee on a new device: the grant the link came with opens the event's pages
      // (the schedule, the sessions, the .ics that /me links to), as the access code would.
      const grant = grantInfo(usableGrant(signed.grant, eventID, ctx.runtime.now() / 1000));
      if (grant)
        astro.cookies.set(GRANT_COOKIE, signed.grant, grantCookieOptions(base || '/', grant.expires, ctx.https));
      return { redirect: next ? `${base}${next}` : `${base}/me` };
    } catch (err) {
      if (!isPodiumError(err)) throw err;
      if (err.status === 429) {
        res.status = 429;
        res.headers.set('retry-after', String(err.retryAfter ?? 60));
        const minutes = minutesOf(err.retryAfter);
        return { state: { kind: 'continue', code, error: tp(locale, 'me.askTooMany', minutes, { minutes }) } };
      }
      if (err.status === 401 || err.status === 400 || err.status === 404) {
        // Signed in already (an old e-mail's link opened again): their registration, not "get a link".
        if (attendeeToken(ctx.cookies.get(ATTENDEE_COOKIE), eventID)) return { redirect: `${base}/me?done=linkUsed` };
        res.status = 401;
        return { state: { kind: 'ask', email: '', error: t(locale, 'me.linkUsed') } };
      }
      console.error('site: /me could not reach person.signInLink:', err.status);
      res.status = 503;
      return { state: { kind: 'continue', code, error: t(locale, 'me.failed') } };
    }
  }
  if (action === 'ask') {
    const email = String(form?.get('email') ?? '')
      .trim()
      .slice(0, EMAIL_MAX + 1);
    if (email === '' || email.length > EMAIL_MAX || !EMAIL.test(email)) {
      res.status = 400;
      return {
        state: { kind: 'ask', email, emailError: t(locale, email === '' ? 'me.emailMissing' : 'me.emailInvalid') },
      };
    }
    try {
      await client.personRequestLink(eventID, email, locale, ctx.call, next);
      return { state: { kind: 'sent' } };
    } catch (err) {
      if (!isPodiumError(err)) throw err;
      if (err.status === 400) {
        res.status = 400;
        return { state: { kind: 'ask', email, emailError: t(locale, 'me.emailInvalid') } };
      }
      if (err.status === 429) {
        const minutes = minutesOf(err.retryAfter);
        res.status = 429;
        res.headers.set('retry-after', String(err.retryAfter ?? 60));
        return { state: { kind: 'ask', email, error: tp(locale, 'me.askTooMany', minutes, { minutes }) } };
      }
      // The log gets the status, never the address.
      console.error('site: /me could not reach person.requestLink:', err.status);
      res.status = 503;
      return { state: { kind: 'ask', email, error: t(locale, 'me.askFailed') } };
    }
  }
  if (action === 'signout') {
    await revokeAttendee(ctx, eventID);
    signOutHere();
    return { redirect: `${base}/me?done=signedout` };
  }

  // ---- the link's landing: a button, never the code spent by a GET ----
  const codeParam = post ? '' : (astro.url.searchParams.get('code') ?? '').trim();
  if (codeParam !== '') {
    if (!CODE.test(codeParam)) {
      res.status = 400;
      return { state: { kind: 'ask', email: '', error: t(locale, 'me.linkUsed') } };
    }
    return { state: { kind: 'continue', code: codeParam } };
  }

  // ---- enrol, leave, RSVP, a guest removed: the action's one call, then the page again (see the top) ----
  // A refusal (an ended token, no registration, a locked session) goes on below, where who is signed in
  // is read and the page says why.
  let refused: { err: unknown; at: string } | undefined;
  const cookieToken = attendeeToken(ctx.cookies.get(ATTENDEE_COOKIE), eventID);
  if (post && cookieToken && QUICK.has(action)) {
    const id = String(form?.get(action === 'guest' ? 'guestID' : 'activityID') ?? '');
    const value = String(form?.get('rsvp') ?? '');
    const valid = action === 'rsvp' ? value === '0' || value === '1' : ID.test(id);
    if (valid) {
      try {
        if (action === 'enrol') await client.activityEnrol(Number(id), cookieToken, ctx.call);
        else if (action === 'leave') await client.activityLeave(Number(id), cookieToken, ctx.call);
        else if (action === 'guest') await client.guestDismissMine(eventID, Number(id), cookieToken, ctx.call);
        else await client.attendeeOperateMine(eventID, 'rsvp', value, cookieToken, ctx.call);
        if (action === 'enrol' || action === 'leave') return done(base, action === 'enrol' ? 'enrolled' : 'left', id);
        return done(base, action);
      } catch (err) {
        if (!isPodiumError(err)) throw err;
        refused = { err, at: action === 'enrol' || action === 'leave' ? `s${id}` : action };
      }
    }
  }

  const who = await signedIn(ctx, eventID, base);
  const hadCookie = attendeeToken(ctx.cookies.get(ATTENDEE_COOKIE), eventID) !== undefined;
  if (!who) {
    if (post) res.status = 401;
    const done = astro.url.searchParams.get('done');
    if (done === 'cancelled' && astro.cookies.get(CANCELLED_COOKIE)?.value === '1') {
      astro.cookies.delete(CANCELLED_COOKIE, cancelledCookieOptions(base, ctx.https));
      return { state: { kind: 'cancelled' } };
    }
    const notice = done === 'signedout' ? t(locale, 'me.signedOut') : undefined;
    return {
      state: { kind: 'ask', email: '', notice, error: hadCookie || post ? t(locale, 'me.expired') : undefined },
    };
  }
  if (who.unknown) {
    res.status = 503;
    return { state: { kind: 'busy' } };
  }
  if (!who.attendee) {
    if (post) res.status = 404;
    return { state: { kind: 'notAttendee' } };
  }
  const token = who.token;

  // ---- signed in: the changes ----
  let error: string | undefined;
  let errorAt: string | undefined;
  let answers: Map<string, string> | undefined;
  let fieldErrors: Map<string, string> | undefined;
  const fail = (err: unknown, at: string) => {
    error = actionError(locale, err);
    errorAt = at;
    res.status = isPodiumError(err) && err.status < 500 ? err.status : 503;
    // The token ended meanwhile (signed out elsewhere, cancelled): the cookie goes.
    if (isPodiumError(err) && err.status === 401) ctx.clearAttendee = base || '/';
  };
  // A session that is full: said with its name (read with the page, below).
  let fullID: string | undefined;
  if (refused) {
    fail(refused.err, refused.at);
    const full = action === 'enrol' && isPodiumError(refused.err) && refused.err.status === 409;
    // (Exactly the line: a chain named "Full-day workshops" is the chain's refusal, not this.)
    if (full && (refused.err as Error).message === ENROL_REFUSED.full) fullID = refused.at.slice(1);
  } else if (post) {
    try {
      switch (action) {
        // Enrol, leave, RSVP and a guest's removal with what they need were done (or refused) above: here
        // only what they were sent without it.
        case 'enrol':
        case 'leave':
        case 'guest':
          throw new Error(`bad ${action === 'guest' ? 'guestID' : 'activityID'}`);
        case 'rsvp':
          res.status = 400;
          error = t(locale, 'me.rsvp');
          errorAt = 'rsvp';
          break;
        case 'cancel':
          return { state: { kind: 'confirmCancel' } };
        case 'cancel-confirm':
          await client.attendeeDismissMine(eventID, token, ctx.call);
          // The platform keeps the calling token (a second cancel answers the same): it is ended here, and
          // the cookie goes.
          await revokeAttendee(ctx, eventID);
          signOutHere();
          // The page after it says so only to this browser: `?done=cancelled` alone is a link anyone could
          // send to tell an attendee that their registration is gone.
          astro.cookies.set(CANCELLED_COOKIE, '1', cancelledCookieOptions(base, ctx.https));
          return { redirect: `${base}/me?done=cancelled` };
        case 'answers': {
          const regForm = await formOf(astro, ev, token);
          answers = form ? postedAnswers(form, regForm.fields) : new Map();
          fieldErrors = new Map();
          // Every answer the platform would refuse for being empty or by its type's format, said at once
          // next to its field (the platform says its first refusal only).
          for (const f of regForm.fields) {
            const v = (answers.get(f.feedbackID) ?? '').trim();
            const empty = v === '' || v === '[]' || (f.type === 'checkbox' && v === '0');
            if (f.required === '1' && empty) fieldErrors.set(f.feedbackID, t(locale, 'me.answerMissing'));
            const wrong = empty ? undefined : formatRefusal(f.type, v);
            if (wrong) fieldErrors.set(f.feedbackID, answerRefusal(locale, REFUSED[wrong]));
          }
          if (fieldErrors.size > 0) {
            res.status = 400;
            errorAt = 'answers';
            break;
          }
          await client.attendeeAnswersMine(
            eventID,
            [...answers].map(([feedbackID, value]) => ({ feedbackID, value })),
            token,
            ctx.call,
          );
          return done(base, 'answers');
        }
        default:
          res.status = 400;
          error = t(locale, 'me.failed');
      }
    } catch (err) {
      if (err instanceof Error && /^bad /.test(err.message)) {
        res.status = 400;
        error = t(locale, 'me.failed');
      } else {
        fail(err, action);
        // The platform's check of one answer ("feedbackContent field 12 (Size) must be one of: …"): said
        // next to that field, with what was typed kept.
        const m = isPodiumError(err) ? /^feedbackContent field (\d+) \(.*?\) (.*)$/s.exec(err.message) : null;
        if (action === 'answers' && m) {
          fieldErrors = new Map([[m[1], answerRefusal(locale, m[2])]]);
          error = undefined;
        }
      }
    }
  }

  // "Cancel my registration" asks first: a page of its own (GET), whose button posts cancel-confirm.
  if (!post && astro.url.searchParams.get('confirm') === 'cancel') return { state: { kind: 'confirmCancel' } };
  const data = await loadMine(astro, ev, token, who.attendee);
  const fullName = fullID && data.activities.find((a) => a.activityID === fullID)?.name;
  if (fullName) error = t(locale, 'me.full', { name: fullName });
  const view = viewOf(ev, data, ctx.runtime.now() / 1000, answers, fieldErrors);
  // A registration through the form stores rsvp 0 when it was not asked (the spec's default), the same
  // 0 as "No": the page shows "No" only right after the attendee chose it, never as an answer they gave.
  if (view.rsvp === '0' && astro.url.searchParams.get('done') !== 'rsvp') view.rsvp = '';
  const notice = post ? undefined : noticeOf(locale, astro.url.searchParams, view);
  const print = !post && astro.url.searchParams.get('view') === 'print';
  return { state: { kind: 'me', view, print, notice, error, errorAt } };
}

export type { MessageKey };
