import type { Dns } from '../../mail/dns.ts';

// The checks of one attendee address (spec §2.6 "E-mail sanity entry", issue 15 outcome 4), each a
// reason an address will likely never be read: its form, a role mailbox nobody answers as a person,
// a throwaway (disposable) domain, a domain that takes no mail (no MX record).

export type SanityReason = '' | 'syntax' | 'role' | 'disposable' | 'no-mx' | 'dns-error';

/** Mailboxes of a function, not of a person: a message to them is rarely read and often reported as spam. */
const ROLES = new Set([
  'noreply', 'no-reply', 'donotreply', 'do-not-reply', 'postmaster', 'hostmaster', 'webmaster', 'abuse',
  'mailer-daemon', 'root', 'admin', 'administrator', 'info', 'support', 'sales', 'contact', 'office', 'security',
  'billing', 'marketing', 'help', 'noc', 'list', 'list-request', 'nobody',
]); // prettier-ignore

/**
 * The address's form: one @, a local part of at most 64 of the characters RFC 5322's dot-atom allows
 * (no leading, trailing or double dot), a domain of at least two labels of letters, digits and inner
 * hyphens (IDNs as punycode), at most 253 characters, a top-level label not all digits.
 */
export function wellFormed(address: string): boolean {
  const at = address.lastIndexOf('@');
  if (at < 1 || address.indexOf('@') !== at || address.length > 254) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64 || !/^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i.test(local))
    return false;
  if (domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2 || /^\d+$/.test(labels.at(-1)!)) return false;
  return labels.every((l) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(l));
}

export interface SanityChecker {
  /** Why the address is not clean ('' when it is). */
  check(address: string): Promise<SanityReason>;
}

/**
 * A checker over one DNS resolver and the disposable-domain list; it asks each domain's MX once
 * (a scan meets the same few domains many times).
 */
export function sanityChecker(dns: Dns, disposable: ReadonlySet<string>): SanityChecker {
  const mx = new Map<string, Promise<'ok' | 'none' | 'error'>>();
  const mxOf = (domain: string) => {
    let v = mx.get(domain);
    if (!v) {
      v = dns.mx(domain).then(
        (hosts) => (hosts.some((h) => h !== '' && h !== '.') ? 'ok' : 'none'),
        () => 'error' as const,
      );
      mx.set(domain, v);
    }
    return v;
  };
  return {
    async check(address) {
      const email = address.trim().toLowerCase();
      if (!wellFormed(email)) return 'syntax';
      const at = email.lastIndexOf('@');
      const local = email.slice(0, at).split('+')[0];
      const domain = email.slice(at + 1);
      if (ROLES.has(local)) return 'role';
      const labels = domain.split('.');
      // A subdomain of a disposable domain is one too.
      for (let i = 0; i < labels.length - 1; i++) if (disposable.has(labels.slice(i).join('.'))) return 'disposable';
      const found = await mxOf(domain);
      return found === 'ok' ? '' : found === 'none' ? 'no-mx' : 'dns-error';
    },
  };
}

let list: Promise<ReadonlySet<string>> | undefined;
/**
 * The disposable-domain list (the disposable-email-domains package: a JSON module, which Node imports
 * only with its type said), loaded on first use; a failed load is not kept, so the next job tries again.
 */
export function disposableDomains(): Promise<ReadonlySet<string>> {
  list ??= import('disposable-email-domains', { with: { type: 'json' } }).then(
    (m) => new Set((m.default as string[]).map((d) => d.toLowerCase())),
    (err: unknown) => {
      list = undefined;
      throw err;
    },
  );
  return list;
}
