// The rows of the platform's answers, once (issue 10): the platform's resources are declared against
// these (a field list that differs does not compile), the OpenAPI document's 200 answers are made from
// them, and the client and the widgets parse answers with them. Browser-safe.

import { z } from 'zod';

export * from './values.ts';
export * from './company.ts';
export * from './event.ts';
export * from './section.ts';
export * from './activity.ts';
export * from './speaker.ts';
export * from './sponsor.ts';
export * from './tag.ts';
export * from './list.ts';
export * from './chain.ts';
export * from './form.ts';
export * from './feedback.ts';
export * from './access.ts';
export * from './person.ts';
export * from './admin.ts';
export * from './attendee.ts';
export * from './invite.ts';
export * from './relation.ts';

/** The envelope (spec §1.2): count, optional total (paginated=1), data. */
export function envelopeOf<T extends z.ZodType>(item: T) {
  return z.object({ count: z.string(), total: z.string().optional(), data: z.array(item) });
}
export * from './change.ts';
export * from './program.ts';
export * from './push.ts';
export * from './webpush.ts';
export * from './webhook.ts';
export * from './checklog.ts';
export * from './coupon.ts';
export * from './beacon.ts';
export * from './budget.ts';
export * from './ad.ts';
export * from './case.ts';
export * from './applicant.ts';
export * from './guest.ts';
export * from './chat.ts';
export * from './comment.ts';
export * from './error.ts';
export * from './search.ts';
export * from './download.ts';
export * from './booking.ts';
export * from './journey.ts';
export * from './crmfeed.ts';
export * from './daemon.ts';
