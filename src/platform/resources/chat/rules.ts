import { ApiError, badRequest, forbidden, notFound } from '../../errors.ts';
import type { Member } from './repository.ts';

// Who may write to whom (docs/api/chat.md): two different people of the same event, neither of whom
// made their profile private. The event's admins (company admins, operators) may write to anyone of it,
// and need no registration of their own; whoever they wrote to may answer them, a private profile too.

/**
 * Refuses a message from `sender` (undefined: not registered) to `receiver` (undefined: not of the event
 * and never wrote to the sender). `replying`: the receiver has written to the sender in this event.
 */
export function checkMessage(
  senderID: number,
  sender: Member | undefined,
  receiver: Member | undefined,
  admin: boolean,
  replying: boolean,
): void {
  if (!receiver) throw notFound('person');
  if (receiver.personID === senderID) throw badRequest('personID cannot be yourself');
  if (admin) return;
  if (!sender) throw forbidden('only people of the event can chat');
  if (sender.private === 1 && !replying) throw forbidden('your profile is private: make it public to chat');
  if (receiver.private === 1) throw forbidden('this person has made their profile private');
}

/** The 429 of a sender past CHAT_PER_MINUTE. */
export const tooManyMessages = (resetMs: number) =>
  new ApiError(429, 'too many chat messages, wait a minute', {
    'Retry-After': String(Math.max(1, Math.ceil(resetMs / 1000))),
  });
