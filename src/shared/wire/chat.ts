import { z } from 'zod';
import { id, s } from './values.ts';

/**
 * A chat message as chat.create / chat.find / chat.get answer it (spec §2.6 Chat message, docs/api/chat.md),
 * with the other person of the conversation as the caller sees it. In chat.find's list of conversations
 * (no personID) each row is the newest message with one person, and `unread` counts theirs not yet viewed.
 */
export const chatWire = z.object({
  chatID: id,
  senderID: id,
  receiverID: id,
  eventID: id,
  /** Plain text, sanitized: no markup; `&`, `<` and `>` as character references. */
  message: z.string(),
  /** Unix seconds. */
  date: z.string(),
  /** '1' once the receiver has read it (chat.view). */
  viewed: z.string(),
  /** The other person of the conversation (not the caller). */
  personID: id,
  /** Their name in the event. */
  personName: s,
  /** Their messages to the caller not yet viewed (the list of conversations only; '' elsewhere). */
  unread: s,
});
export type Chat = z.infer<typeof chatWire>;

/** chat.view: the conversation marked read and how many messages that took. */
export const chatViewWire = z.object({
  eventID: id,
  personID: id,
  /** Messages of that person to the caller newly marked viewed. */
  viewed: z.string(),
});
