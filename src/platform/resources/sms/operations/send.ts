import { z } from 'zod';
import { b, defineOperation, q } from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { ApiError, notFound } from '../../../errors.ts';
import { eventAccess } from '../../../auth/access.ts';
import { smsWire } from '../../../../shared/wire/messaging.ts';
import { eventLink, oneLine } from '../../email/compose.ts';
import { canSpend } from '../../billing/repository.ts';
import { insertSms, recentCounts, smsEvent } from '../repository.ts';
import { SMS_JOB } from '../job.ts';
import { siteUrlOf } from '../../../config.ts';

/** E.164: a plus, a country code not starting with 0, at most 15 digits in all (spaces and dashes forgiven). */
export const telephone = z
  .string()
  .max(40, 'must be at most 40 characters')
  .transform((v) => v.replace(/[\s().-]/g, ''))
  .refine((v) => /^\+[1-9]\d{6,14}$/.test(v), 'must be a telephone number in E.164 form, such as +351912345678');

const HOUR = 3600;

/**
 * Spec §4.2: sends the event's link by SMS to a telephone number. Public (no token), so limited per
 * number, per event and per caller address each hour (429), and paid from the company's SMS balance
 * (402 when none is left: nothing is sent). The message is a job: the answer says `queued`.
 */
/**
 * What the SMS says: the organizer's text (event.edit key=smsText) with {{eventName}} and {{link}} put
 * in — plain replacement, nothing evaluated —, else the event's name and link.
 */
export function smsTextOf(event: { name: string; smsText: string }, link: string): string {
  const name = oneLine(event.name).slice(0, 80);
  if (event.smsText === '') return `${name}: ${link}`;
  return event.smsText.replace(/\{\{\s*(eventName|link)\s*\}\}/g, (_m, k: string) => (k === 'link' ? link : name));
}

export default defineOperation({
  name: 'event.sendSMS',
  summary:
    "Sends the event's name and link by SMS to a number in E.164 form (public; limited per number, event and address; paid from the SMS balance).",
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    telephone: b(telephone, 'the number, E.164 (+<country code><number>)'),
  },
  auth: { kind: 'public' },
  // Not callable from any web page: an SMS costs money, and visitors of a hostile page would each send
  // one from their own address (the per-address limit would not hold). CORS is for the widgets only.
  answer: smsWire,
  writes: true,
  async handler(ctx, p) {
    const event = await smsEvent(ctx.db, p.eventID);
    // An invisible event exists only for the people related to it.
    if (!event || (event.visible !== 1 && !(await eventAccess(ctx.db, ctx.caller, event.eventID))?.related))
      throw notFound('event');
    const c = ctx.config;
    const recent = await recentCounts(ctx.db, ctx.now - HOUR, { telephone: p.telephone, eventID: p.eventID, address: ctx.clientIp }); // prettier-ignore
    const limited = (why: string) => new ApiError(429, `${why}, try again later`, { 'Retry-After': '3600' });
    if (recent.telephone >= c.SMS_PER_NUMBER_HOUR) throw limited('too many SMS to this number');
    if (recent.address >= c.SMS_PER_ADDRESS_HOUR) throw limited('too many SMS asked from this address');
    if (recent.event >= c.SMS_PER_EVENT_HOUR) throw limited('too many SMS of this event');
    if (!(await canSpend(ctx.db, p.eventID, 'sms', c.SMS_ALLOWANCE)))
      throw new ApiError(402, 'the SMS balance of this event is used up');
    const text = smsTextOf(event, eventLink(event, siteUrlOf(c)));
    const smsLogID = await insertSms(ctx.db, { eventID: p.eventID, telephone: p.telephone, text, address: ctx.clientIp, now: ctx.now }); // prettier-ignore
    await ctx.jobs.add(ctx.db, SMS_JOB, { smsLogID });
    return [{ smsLogID, eventID: p.eventID, telephone: p.telephone, status: 'queued' }];
  },
});
