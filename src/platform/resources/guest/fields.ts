import { email, text } from '../../schemas.ts';
import { badRequest } from '../../errors.ts';

// A guest's fields (docs/api/guests.md): event.guest.* and the guests a registration brings
// (form.respondRegistration B guests) read them the same way.

export const guestName = text(200)
  .transform((v) => v.trim().replace(/\s+/g, ' '))
  .refine((v) => v !== '', 'cannot be blank');
export const guestEmail = email.transform((v) => v.toLowerCase());

export interface GuestInput {
  readonly name: string;
  /** '' when none was given. */
  readonly email: string;
}

/** Most guests one registration may list: guestsForMember's own maximum. */
export const GUESTS_MAX = 100;

/**
 * form.respondRegistration's B guests: a JSON list of `{"name","email?"}` (an empty list: none). Each
 * is checked as event.guest.bind checks its name and e-mail; messages name the guest by its place (1…).
 */
export function parseGuestList(raw: string): GuestInput[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  if (!Array.isArray(json)) throw badRequest('guests must be a JSON list of {"name","email"}');
  if (json.length > GUESTS_MAX) throw badRequest(`guests must list at most ${GUESTS_MAX} guests`);
  return json.map((g: unknown, i) => {
    const at = `guests ${i + 1}`;
    if (typeof g !== 'object' || g === null || Array.isArray(g))
      throw badRequest(`${at} must be an object {"name","email"}`);
    const { name: n, email: e, ...rest } = g as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw badRequest(`${at} has an unknown key ${extra.slice(0, 40)}`);
    const name = guestName.safeParse(typeof n === 'string' ? n : '');
    if (!name.success) throw badRequest(`${at} name ${name.error.issues[0]?.message ?? 'is not valid'}`);
    if (e === undefined || e === '') return { name: name.data, email: '' };
    const mail = guestEmail.safeParse(typeof e === 'string' ? e : '');
    if (!mail.success) throw badRequest(`${at} email ${mail.error.issues[0]?.message ?? 'is not valid'}`);
    return { name: name.data, email: mail.data };
  });
}
