import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Caller } from '../auth/caller.ts';

/**
 * What a domain write needs of the call it runs for: the store (inside a write, its transaction),
 * the call's time, whether it is a sandbox call, the token lifetime, and who calls. Declared here so
 * domain code never imports the operation kernel; the kernel's Context has all of it.
 */
export interface Work {
  readonly db: Kysely<DB>;
  readonly now: number;
  readonly sandbox: boolean;
  readonly config: { readonly TOKEN_TTL_DAYS: number };
  readonly caller: Caller | undefined;
}
