import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Signing secrets (docs/webhooks.md "Secrets"). The platform must keep a secret it can read — it signs
// every delivery with it, and the receiver checks with the same secret (Standard Webhooks is HMAC) — so
// it cannot be hashed like a password. It is sealed instead with AES-256-GCM under WEBHOOK_SECRET_KEY,
// a key that lives in the environment, never in the store: a leaked row or backup reveals nothing
// without it. The clear secret is answered once, by webhook.create (and webhook.rotate).

/** A new secret in the Standard Webhooks form: `whsec_` and 24 random bytes in base64. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** `iv.tag.ciphertext`, each base64. */
export function sealSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64')).join('.');
}

/** The clear secret of a sealed one; throws when the key is not the one it was sealed with. */
export function openSecret(key: Buffer, sealed: string): string {
  const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}
