import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const COST = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** 60 characters from a cryptographic source (45 random bytes in base64url), per spec §5.1. */
export function newToken(): string {
  return randomBytes(45).toString('base64url');
}

/** Tokens are stored only as this hash; a leaked table does not hand out sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 32, COST);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, COST);
  return timingSafeEqual(actual, expected);
}

/** Short fingerprint for log lines, so a token can be correlated without being revealed. */
export const maskToken = (token: string) => `${token.slice(0, 4)}…(${token.length})`;
