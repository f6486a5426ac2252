import { hkdfSync } from 'node:crypto';
import { openSecret, sealSecret } from '../webhook/secret.ts';

// An event's CRM token is sealed like a webhook's signing secret (AES-256-GCM, src/platform/resources/
// webhook/secret.ts): the platform must send it to the provider, so it cannot be hashed. The key is
// derived from WEBHOOK_SECRET_KEY with HKDF under a label of its own, so one operator key serves both
// without the two kinds of sealed values ever sharing a key. A leaked row or backup reveals nothing
// without the environment's key; no answer shows more than the token's last four characters.

const LABEL = 'podium crmfeed token';

/** The sealing key of CRM tokens, from the platform's secret key. */
export const crmKey = (secretKey: Buffer): Buffer => Buffer.from(hkdfSync('sha256', secretKey, '', LABEL, 32));

export const sealToken = (secretKey: Buffer, token: string): string => sealSecret(crmKey(secretKey), token);
export const openToken = (secretKey: Buffer, sealed: string): string => openSecret(crmKey(secretKey), sealed);

/** What crmfeed.get shows of a token: `****` and the last four characters kept at link time. */
export const maskToken = (hint: string): string => `****${hint}`;
/** The part of a token kept in clear for the mask: its last four characters, only for tokens of 12 or more. */
export const hintOf = (token: string): string => (token.length >= 12 ? token.slice(-4) : '');
