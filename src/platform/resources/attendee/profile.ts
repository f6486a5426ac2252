import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { ANY_LEVEL, LEVEL } from '../../auth/levels.ts';
import type { RecordOptions } from './record.ts';

/** A numeric event permission level (spec §5.8): one or more of the LEVEL bits, no other bit. */
export const levelSchema = z
  .string()
  .regex(/^\d{1,6}$/, 'must be a numeric permission level')
  .transform(Number)
  .refine(
    (n) => n > 0 && (n & ~ANY_LEVEL) === 0,
    `must combine the levels ${Object.values(LEVEL).join(', ')} (and no other bit)`,
  );

/** ISO 639-1 language codes. */
const ISO_639_1 = `aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da
de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io
is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my
na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq
sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`;
const LANGUAGES = new Set(ISO_639_1.split(/\s+/));

export const languageSchema = z
  .string()
  .transform((v) => v.toLowerCase())
  .refine((v) => LANGUAGES.has(v), 'must be an ISO 639-1 language code such as en');

/** Base64 (standard alphabet, padded): the NFC tag of spec §2.3. */
export const base64Schema = z
  .string()
  .max(1000, 'must be at most 1000 characters')
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be base64');

export async function recordOptions(db: Kysely<DB>, eventID: number, fullProfile = false): Promise<RecordOptions> {
  const event = await db.selectFrom('event').select('language').where('eventID', '=', eventID).executeTakeFirst();
  return { eventLanguage: event?.language ?? '', fullProfile };
}

/** Callers that may read every attendee of the event (event.person.find, event.person.get of another). */
export const READERS = LEVEL.ADMIN | LEVEL.STAFF | LEVEL.COLLECTOR;
