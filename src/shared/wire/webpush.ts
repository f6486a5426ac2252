import { z } from 'zod';
import { id } from './values.ts';

/**
 * What push.bind answers (Podium extension, docs/push.md "Web Push"): the subscription's id, its event,
 * and how many of the ids it sent are sessions of that event (the others are not kept).
 */
export const webPushWire = z.object({
  pushID: id,
  eventID: id,
  activities: id,
});
export type WebPush = z.infer<typeof webPushWire>;

/** What push.key answers: the platform's VAPID public key (base64url), the browser's applicationServerKey. */
export const webPushKeyWire = z.object({ publicKey: z.string() });

/** What a notification carries (the payload the service worker reads, encrypted for the browser). */
export const webPushNoticeWire = z.object({
  title: z.string(),
  body: z.string(),
  /** A path of the site the browser registered from: the session's page, or the changes page. */
  url: z.string(),
  /** Replaces an earlier notification of the same session or write. */
  tag: z.string(),
});
export type WebPushNotice = z.infer<typeof webPushNoticeWire>;
