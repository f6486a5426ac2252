import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobHandler } from '../../jobs/queue.ts';
import type { Message, Outbox } from '../../mail/outbox.ts';
import { pickLocale, t } from '../../../shared/i18n/messages.ts';
import { escapeHtml, eventLink, oneLine, senderOf, type Senders } from './compose.ts';
import { confirmationData, type ConfirmationData } from './repository.ts';
import { eventSenders } from '../sender/repository.ts';
import { issueLink, type LinkMailPayload } from '../person/magic.ts';

// The e-mail of person.requestLink (issue 18): a one-time link to the attendee's "My registration" page
// of the event's site, in the language asked for (else the attendee's, else the event's), from the
// event's sender as the confirmation is. A job (person/magic.ts LINK_MAIL_JOB): the code is made here,
// when the message is, and a run again replaces the code its request made before (only the last
// message's link works); once that link was used, a run sends nothing.

/**
 * The "My registration" page of the event's site with a link code: `<event site>/me?code=…`, and the
 * page of the event's site to go back to once signed in (`&next=/schedule`, relative to the event).
 */
export function myRegistrationLink(
  d: Pick<ConfirmationData, 'cname' | 'namespace' | 'nickname'>,
  siteUrl: string,
  code: string,
  next = '',
): string {
  const back = next ? `&next=${encodeURIComponent(next)}` : '';
  return `${eventLink(d, siteUrl).replace(/\/+$/, '')}/me?code=${encodeURIComponent(code)}${back}`;
}

export function linkMessage(
  d: ConfirmationData,
  link: string,
  o: { readonly mailFrom: string; readonly ttlSeconds: number; readonly lang: string },
  senders: Senders,
): Message {
  const locale = pickLocale([o.lang, d.personLanguage, d.language]);
  const event = oneLine(d.eventName);
  const minutes = String(Math.max(1, Math.round(o.ttlSeconds / 60)));
  const greeting = t(locale, 'mail.confirm.greeting', { name: oneLine(d.firstName || d.name) });
  const intro = t(locale, 'mail.link.intro', { event, minutes });
  const ignore = t(locale, 'mail.link.ignore');
  const html = [
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(event)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f;max-width:36em">',
    `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(t(locale, 'mail.link.open'))}</a></p>`,
    `<p style="word-break:break-all">${escapeHtml(link)}</p>`,
    `<p>${escapeHtml(ignore)}</p></body></html>`,
  ].join('');
  return {
    to: d.email,
    ...senderOf(d, o.mailFrom, senders),
    subject: t(locale, 'mail.link.subject', { event }),
    text: [greeting, '', intro, link, '', ignore].join('\n'),
    html,
  };
}

export interface LinkMailOptions {
  /** SITE_URL: the event's site when it has no domain of its own. */
  readonly siteUrl: string;
  readonly mailFrom: string;
  /** MAGIC_LINK_TTL. */
  readonly ttlSeconds: number;
  /** Unix seconds. */
  readonly now?: () => number;
}

/** The job's handler: nothing for a payload without a person (the address was no attendee's). */
export function linkMailHandler(db: Kysely<DB>, outbox: Outbox, options: LinkMailOptions): JobHandler {
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  return async (payload: LinkMailPayload) => {
    if (!payload.personID) return;
    const data = await confirmationData(db, payload.eventID, payload.personID);
    if (!data) return;
    // The event's profile holds the address the attendee registered with; else the identity's.
    const person = await db
      .selectFrom('person')
      .select(['email', 'username'])
      .where('personID', '=', payload.personID)
      .executeTakeFirst();
    const to = [data.email, person?.email ?? '', person?.username ?? ''].find((a) => a.includes('@'));
    if (!to) return;
    const code = await issueLink(db, payload.eventID, payload.personID, now(), options.ttlSeconds, payload.request);
    if (!code) return;
    const link = myRegistrationLink(data, options.siteUrl, code, payload.next ?? '');
    const senders = await eventSenders(db, payload.eventID, data.emailAddress);
    await outbox.send(linkMessage({ ...data, email: to }, link, { ...options, lang: payload.lang }, senders));
  };
}
