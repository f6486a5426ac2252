import { z } from 'zod';
import { MAX_ID } from '../../schemas.ts';
import { MAX_ENDPOINT } from './endpoint.ts';

// The fields of a Web Push subscription as a browser sends them (PushSubscription.toJSON(): endpoint,
// keys.p256dh, keys.auth) and the sessions it saved. Checked here for shape; the endpoint's host is
// checked against WEBPUSH_HOSTS by the operation (endpoint.ts), which knows the configuration.

/** Sessions one browser may follow in one event: far more than anyone saves, few enough to check at once. */
export const MAX_SAVED = 200;

const base64url = (bytes: number) => {
  const chars = Math.ceil((bytes * 4) / 3);
  return z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}={0,2}$`), `must be ${bytes} bytes in base64url`)
    .transform((v) => v.replace(/=+$/, ''));
};

export const WEB_PUSH_FIELDS = {
  endpoint: z.string().min(1, 'cannot be empty').max(MAX_ENDPOINT, `must be at most ${MAX_ENDPOINT} characters`),
  /** The browser's P-256 public key, uncompressed (65 bytes, first 0x04). */
  p256dh: base64url(65).refine((v) => Buffer.from(v, 'base64url')[0] === 4, 'must be an uncompressed P-256 key'),
  /** The browser's authentication secret (16 bytes). */
  auth: base64url(16),
  activityIDs: z
    .string()
    .max(MAX_SAVED * 11, `must be at most ${MAX_SAVED} ids`)
    .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/, 'must be positive integers separated by commas')
    .transform((v) => [...new Set(v.split(',').map(Number))])
    .refine((list) => list.length <= MAX_SAVED, `must be at most ${MAX_SAVED} ids`)
    .refine((list) => list.every((n) => n <= MAX_ID), `must be positive integers up to ${MAX_ID}`),
  /**
   * The schedule's path on the site the browser is on ('/acme/summit/schedule', '/schedule' on an
   * event's own domain): a notification opens `<page>/<activityID>` there. A path only, never an
   * address, so a notification cannot send anyone to another site.
   */
  page: z
    .string()
    .max(200, 'must be at most 200 characters')
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, 'must be a path such as /company/event/schedule'),
};
