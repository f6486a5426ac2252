import { pickLocale, t, type Locale } from '../../../shared/i18n/messages.ts';
import { toICalendar } from '../../../shared/schedule/ical.ts';
import { formatDate, formatRange, formatTime, safeTimeZone } from '../../../shared/schedule/time.ts';
import type { Message } from '../../mail/outbox.ts';
import { qrPng } from '../../mail/qr-png.ts';
import type { ConfirmationData } from './repository.ts';
import { placeLine } from '../../../shared/place.ts';

// The registration confirmation (issue 15, outcome 2): HTML and plain text in the attendee's language,
// the event's dates in its own zone, the venue, the site's link, the check-in code as a QR image (inline,
// by Content-ID: mail clients block data: images) and as text, and the event as an .ics file made by the
// generator the site's "Download calendar" uses.

export interface ComposeOptions {
  /** The site's address (SITE_URL): event pages are /<namespace>/<nickname> there. */
  readonly siteUrl: string;
  /** MAIL_FROM: its address is the sender's when the event has none of its own. */
  readonly mailFrom: string;
  /** Unix seconds (DTSTAMP). */
  readonly now: number;
  /** The attendee's "My registration" link (an event magic link) and how long it works. */
  readonly me?: { readonly link: string; readonly ttlSeconds: number };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Line breaks and other control characters folded to spaces: what a header value may hold. */
export const oneLine = (v: string) =>
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  v.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/** The address part of `Name <address>` (or the whole value). */
export const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/** The event's page: its own domain when it has one, else /<namespace>/<nickname> on the site. */
export function eventLink(d: Pick<ConfirmationData, 'cname' | 'namespace' | 'nickname'>, siteUrl: string): string {
  if (d.cname) return `https://${d.cname}/`;
  return `${siteUrl.replace(/\/+$/, '')}/${encodeURIComponent(d.namespace)}/${encodeURIComponent(d.nickname)}`;
}

/** Who an event's mail comes from (resources/sender eventSenders): a verified sender, else where replies go. */
export interface Senders {
  readonly verified?: { readonly name: string; readonly address: string };
  readonly replyTo: string;
}

/**
 * From and Reply-To of an event's mail: a verified sender of the event (its SPF, DKIM and DMARC ok) as
 * From; else MAIL_FROM's address with the event's name, and the event's own address as Reply-To (an
 * unverified domain as From would fail DMARC at the receiver and be junked or refused).
 */
export function senderOf(
  d: Pick<ConfirmationData, 'emailName' | 'eventName'>,
  mailFrom: string,
  senders: Senders,
): { from: { name: string; address: string }; replyTo?: string } {
  const name = oneLine(d.emailName || senders.verified?.name || d.eventName).slice(0, 200);
  if (senders.verified) return { from: { name, address: oneLine(senders.verified.address) } };
  const replyTo = oneLine(senders.replyTo);
  return { from: { name, address: addressOf(mailFrom) }, ...(replyTo ? { replyTo } : {}) };
}

/** The event's dates for people, in its zone: "21 December 2030, 09:00–17:00 (Europe/Lisbon)". */
export function datesOf(begin: number, end: number, zone: string, locale: Locale): string {
  if (!begin) return '';
  const days =
    end > begin && formatDate(begin, zone, locale) !== formatDate(end, zone, locale)
      ? `${formatDate(begin, zone, locale)} ${formatTime(begin, zone, locale)} – ${formatDate(end, zone, locale)} ${formatTime(end, zone, locale)}`
      : `${formatDate(begin, zone, locale)}, ${formatRange(begin, end, zone, locale)}`;
  return `${days} (${zone})`;
}

export async function confirmationMessage(d: ConfirmationData, o: ComposeOptions, senders: Senders): Promise<Message> {
  const locale = pickLocale([d.personLanguage, d.language]);
  const zone = safeTimeZone(d.timezone);
  const begin = Number(d.dateBegin ?? 0);
  const end = Math.max(Number(d.dateEnd ?? 0), begin);
  const event = oneLine(d.eventName);
  const link = eventLink(d, o.siteUrl);
  const venue = placeLine(...[d.placeName, d.address, d.city].map(oneLine));
  const when = datesOf(begin, end, zone, locale);
  const name = oneLine(d.firstName || d.name);
  const lines: [string, string][] = [
    [t(locale, 'mail.confirm.when'), when],
    [t(locale, 'mail.confirm.where'), venue],
    [t(locale, 'mail.confirm.site'), link],
  ];
  if (o.me) lines.push([t(locale, 'mail.confirm.me'), o.me.link]);
  const shown = lines.filter(([, v]) => v !== '');
  const meHint = o.me
    ? t(locale, 'mail.confirm.meHint', { days: String(Math.max(1, Math.round(o.me.ttlSeconds / 86400))) })
    : '';
  const isLink = (k: string) => k === t(locale, 'mail.confirm.site') || k === t(locale, 'mail.confirm.me');
  const intro = t(locale, 'mail.confirm.intro', { event });
  const greeting = t(locale, 'mail.confirm.greeting', { name });
  const text = [
    greeting,
    '',
    intro,
    '',
    ...shown.map(([k, v]) => `${k}: ${v}`),
    ...(meHint ? [meHint] : []),
    '',
    `${t(locale, 'mail.confirm.code')}: ${d.qrCode}`,
    t(locale, 'mail.confirm.codeHint'),
    '',
    t(locale, 'mail.confirm.calendar'),
  ].join('\n');
  const host = new URL(link).hostname;
  const html = [
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(event)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f;max-width:36em">',
    `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p><dl>`,
    ...shown.map(([k, v]) =>
      isLink(k)
        ? `<dt><strong>${escapeHtml(k)}</strong></dt><dd><a href="${escapeHtml(v)}">${escapeHtml(v)}</a></dd>`
        : `<dt><strong>${escapeHtml(k)}</strong></dt><dd>${escapeHtml(v)}</dd>`,
    ),
    `</dl>${meHint ? `<p>${escapeHtml(meHint)}</p>` : ''}<h2 style="font-size:1.1em">${escapeHtml(t(locale, 'mail.confirm.code'))}</h2>`,
    `<p><img src="cid:qr@podium" width="240" height="240" alt="${escapeHtml(d.qrCode)}"></p>`,
    `<p><code style="font-size:1.2em">${escapeHtml(d.qrCode)}</code><br>${escapeHtml(t(locale, 'mail.confirm.codeHint'))}</p>`,
    `<p>${escapeHtml(t(locale, 'mail.confirm.calendar'))}</p></body></html>`,
  ].join('');
  const attachments: { filename: string; content: Buffer | string; contentType: string; cid?: string }[] = [
    {
      filename: 'qr.png',
      content: qrPng(d.qrCode, 240, 2, 'M'),
      contentType: 'image/png',
      cid: 'qr@podium',
    },
  ];
  if (begin > 0) {
    const ics = toICalendar({
      calendarName: event,
      timeZone: zone,
      sessions: [
        {
          // The calendar's UID is activity-<id>@<uidDomain>: the event's own domain part keeps it apart.
          activityID: 0,
          name: event,
          description: '',
          location: '',
          dateBegin: begin,
          dateEnd: end,
          highlight: false,
          capacity: 0,
          stream: '',
          speakers: [],
          tags: [],
        },
      ],
      urlOf: () => link,
      uidDomain: `event-${d.nickname}.${host}`,
      now: o.now,
      location: venue,
    });
    attachments.push({
      filename: 'event.ics',
      content: ics,
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
    });
  }
  return {
    to: d.email,
    ...senderOf(d, o.mailFrom, senders),
    subject: t(locale, 'mail.confirm.subject', { event }),
    text,
    html,
    attachments,
  };
}
