// Secrets out of error reports before they are stored (docs/api/errors.md "What is kept"): client apps
// put tokens, passwords and keys in their crash reports (a configuration dump, a request URL, a header).
// Every rule is one linear pass with bounded repetitions; what it removes becomes `[redacted]`.

export const REDACTED = '[redacted]';

/** Key names whose values are secrets (lower case, matched inside the name: `tokenID`, `x-api-key`). */
const SECRET_WORDS = [
  'password', 'passwd', 'pwd', 'secret', 'token', 'apikey', 'api_key', 'api-key', 'authorization', 'cookie',
  'session', 'credential', 'privatekey', 'private_key', 'p256dh', 'accesscode', 'signature', 'sig',
]; // prettier-ignore

export const isSecretKey = (key: string): boolean => {
  const k = key.toLowerCase();
  return SECRET_WORDS.some((w) => k.includes(w)) || k === 'auth';
};

/** `key=value`, `key: value`, `"key":"value"`: the key is at most 64 characters, the value up to a delimiter. */
const PAIR = /([A-Za-z_][\w.-]{0,63})(["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)([^\s"'&,;}\]]{1,4000})/g;
/** Authorization header values. */
const SCHEME = /\b(Bearer|Basic|Token)[ \t]{1,8}[\w.~+/=-]{1,4000}/gi;
/** user:password@ in an address. */
const USERINFO = /\/\/[^/\s:@]{1,200}:[^/\s@]{1,200}@/g;
/** JSON Web Tokens (three base64url parts). */
const JWT = /\beyJ[\w-]{1,4000}\.[\w-]{1,4000}\.[\w-]{0,4000}/g;
/** Long opaque runs: Podium's tokens (60 characters), API keys, SHA-256 hex. A 40-character commit id stays. */
const OPAQUE = /[\w-]{48,}/g;

export function redactText(text: string): string {
  return text
    .replace(USERINFO, `//${REDACTED}@`)
    .replace(SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(PAIR, (whole, key: string, sep: string) => (isSecretKey(key) ? `${key}${sep}${REDACTED}` : whole))
    .replace(OPAQUE, REDACTED);
}

const MAX_NODES = 5000;
const MAX_DEPTH = 32;

/**
 * A parsed JSON report with secrets out: values under secret keys whole, every other string through
 * redactText. Bounded: deeper than MAX_DEPTH or past MAX_NODES values, what is left is dropped.
 */
export function redactJson(value: unknown): unknown {
  let nodes = 0;
  const walk = (v: unknown, depth: number): unknown => {
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return REDACTED;
    if (typeof v === 'string') return redactText(v);
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = isSecretKey(k) ? REDACTED : walk(x, depth + 1);
      return out;
    }
    return v;
  };
  return walk(value, 0);
}
