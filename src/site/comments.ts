// The comments of a session's page (docs/site.md "Comments"): the approved ones for everyone (no
// JavaScript), and for a signed-in attendee (attendee.ts) their own waiting ones too and a form that
// posts to the page itself. Reads and writes go through the platform's public API only: comment.find
// (selection approved, or approved+me with the visitor's token) and comment.create. The text is
// sanitized by the platform on write and again here on render (userHtml).

import type { AstroGlobal } from 'astro';
import { isPodiumError, type Comment } from '../client/index.ts';
import { t, type MessageKey } from '../shared/i18n/messages.ts';
import { dateTimeFormat } from '../shared/schedule/time.ts';
import { ATTENDEE_COOKIE, attendeeCookieOptions, attendeeToken } from './attendee.ts';
import { userHtml } from './html.ts';
import { postedFromHere } from './origin.ts';
import type { OkLoad } from './pages.ts';

/** The platform's own limit (docs/api/comments.md): the form says it before the platform has to. */
export const COMMENT_MAX = 1000;

export interface CommentItem {
  id: string;
  name: string;
  /** Sanitized text as HTML (no tags: entities only). */
  html: string;
  /** ISO date and its words in the event's zone and language. */
  iso: string;
  when: string;
  waiting: boolean;
}

export interface CommentsView {
  items: CommentItem[];
  signedIn: boolean;
  /** After posting a comment that waits for moderation. */
  pending: boolean;
  /** The form's error, and the text it keeps. */
  error?: string;
  text: string;
  /** The sign-in page (returning here) and the sign-out form's action. */
  signIn: string;
  signOut: string;
  /**
   * The session's page, bare: where the comment form posts and sign-out returns. Not the address as it
   * is: after a comment waiting for moderation it holds `?comment=pending#comments`, and a form posted
   * there said "Thank you" again over the next one's error, and a fragment stops the error's autofocus.
   */
  page: string;
}

/** The answer to a comment posted: back to the page (Post/Redirect/Get), or the page again with an error. */
export type CommentsResult = { view: CommentsView | undefined } | { redirect: string };

const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

function itemOf(c: Comment, load: OkLoad): CommentItem {
  const date = Number(c.date);
  const fmt = dateTimeFormat(load.timeZone, load.locale, WHEN);
  return {
    id: c.commentID,
    name: c.personName,
    html: userHtml(c.text),
    iso: new Date(date * 1000).toISOString(),
    when: fmt.format(new Date(date * 1000)),
    waiting: c.approved !== '1',
  };
}

/** What a refused comment.create says on the page. */
function errorKey(err: unknown): MessageKey {
  if (!isPodiumError(err)) throw err;
  if (err.status === 401) return 'comments.expired';
  if (err.status === 403) return 'comments.notAttendee';
  if (err.status === 400) return /empty/.test(err.message) ? 'comments.empty.text' : 'comments.hint';
  return 'comments.failed';
}

/**
 * The page's comments, handling the form's POST: a comment posted returns to the page (a waiting one
 * with `?comment=pending`); a refused one shows the page again with the error and the text kept.
 */
export async function sessionComments(
  astro: AstroGlobal,
  load: OkLoad,
  activityID: number,
  pagePath: string,
): Promise<CommentsResult> {
  const ctx = astro.locals.podium;
  const eventID = Number(load.event.eventID);
  let token = attendeeToken(ctx.cookies.get(ATTENDEE_COOKIE), eventID);
  const signOut = () => {
    astro.cookies.set(ATTENDEE_COOKIE, '', attendeeCookieOptions(load.links.base, ctx.https, 0, false));
    token = undefined;
  };
  if (token) {
    // One person's page: never stored nor shared (the front server skips the cache for this cookie).
    ctx.cacheable = false;
    astro.response.headers.set('cache-control', 'private, no-store');
  }
  const base = {
    signIn: `${load.links.base}/signin?next=${encodeURIComponent(pagePath)}`,
    signOut: `${load.links.base}/signin`,
    page: pagePath,
  };
  let error: MessageKey | undefined;
  let text = '';
  if (astro.request.method === 'POST') {
    ctx.cacheable = false;
    const form = await astro.request.formData().catch(() => undefined);
    text = String(form?.get('text') ?? '').slice(0, COMMENT_MAX * 2);
    if (!postedFromHere(astro.request.headers, ctx.hostname)) {
      astro.response.status = 403;
      error = 'comments.failed';
    } else if (!token) {
      astro.response.status = 401;
      error = 'comments.expired';
    } else if (text.trim() === '') {
      astro.response.status = 400;
      error = 'comments.empty.text';
    } else {
      try {
        const made = await ctx.runtime.client.commentCreate(activityID, text, token, ctx.call);
        return { redirect: `${pagePath}${made.approved === '1' ? '' : '?comment=pending'}#comments` };
      } catch (err) {
        error = errorKey(err);
        astro.response.status = isPodiumError(err) ? err.status : 500;
        if (error === 'comments.expired') signOut();
      }
    }
  }
  const client = ctx.runtime.client;
  const publicList = () => client.commentFind(activityID, load.grant, ctx.call);
  let rows: Comment[];
  try {
    rows = token
      ? await client.commentFindMine(activityID, token, ctx.call).catch((err: unknown) => {
          if (!(isPodiumError(err) && err.status === 401)) throw err;
          // The platform no longer takes the token (expired, revoked): signed out, the public list instead.
          signOut();
          return publicList();
        })
      : await publicList();
  } catch (err) {
    // A platform without the comments extension: the page shows no comments section.
    console.error('site: comments of a session could not be read:', isPodiumError(err) ? err.status : err);
    return { view: undefined };
  }
  const pending = token !== undefined && astro.url.searchParams.get('comment') === 'pending';
  return {
    view: {
      ...base,
      items: rows.map((c) => itemOf(c, load)),
      signedIn: token !== undefined,
      pending,
      error: error && t(load.locale, error),
      text,
    },
  };
}
