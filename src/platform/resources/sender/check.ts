import { createHmac } from 'node:crypto';
import type { Dns } from '../../mail/dns.ts';

// What event.sender.refresh checks of a sender's domain (docs/messaging.md "Senders"): four TXT
// records, each ok, missing or wrong, with the record the organizer should publish.
//
// - Owner at _podium.<domain>: `podium-verification=<token>`, the token the company's own (an HMAC of
//   the company and the domain). SPF, DKIM and DMARC say the same for every customer of the platform,
//   so once one company has set its domain up they would vouch for any other company's sender at it;
//   this record is what only the domain's owner can publish for its own company.
// - SPF at <domain>: exactly one `v=spf1` record, holding the platform's mechanism (SPF_INCLUDE,
//   default include:<MAIL_FROM's domain>), so receivers take the platform's servers as the domain's.
// - DKIM at <selector>._domainkey.<domain> (DKIM_SELECTOR): a `v=DKIM1` record with a key (p=), the
//   platform's own when DKIM_PUBLIC_KEY is set.
// - DMARC at _dmarc.<domain>: exactly one `v=DMARC1` record with a policy p=none|quarantine|reject.

export type CheckStatus = 'ok' | 'missing' | 'wrong' | 'error';

export interface Check {
  readonly status: CheckStatus;
  /** Where the record lives. */
  readonly name: string;
  /** What was found there ('' when nothing). */
  readonly found: string;
  /** The record to publish there. */
  readonly expected: string;
  /** Why it is not ok, one line ('' when ok). */
  readonly reason: string;
}

export interface DomainChecks {
  readonly owner: Check;
  readonly spf: Check;
  readonly dkim: Check;
  readonly dmarc: Check;
}

export interface CheckOptions {
  readonly spfInclude: string;
  readonly dkimSelector: string;
  readonly dkimPublicKey?: string;
}

/** `k=v; k=v` tags of a DKIM or DMARC record, names lower-case. */
function tags(record: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of record.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out.set(part.slice(0, i).trim().toLowerCase(), part.slice(i + 1).replace(/\s+/g, ''));
  }
  return out;
}

const startsWith = (v: string, prefix: string) => v.trim().toLowerCase().startsWith(prefix);

/** Asks, turning a failure (timeout, refused) into an `error` check instead of a thrown error. */
async function ask(dns: Dns, name: string): Promise<string[] | Error> {
  try {
    return await dns.txt(name);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

const failed = (name: string, expected: string, err: Error): Check => ({
  status: 'error',
  name,
  found: '',
  expected,
  reason: `the DNS server did not answer (${(err as { code?: string }).code ?? err.message})`.slice(0, 200),
});

export async function checkSpf(dns: Dns, domain: string, o: CheckOptions): Promise<Check> {
  const want = o.spfInclude.toLowerCase();
  const got = await ask(dns, domain);
  const expected = `v=spf1 ${o.spfInclude} ~all`;
  if (got instanceof Error) return failed(domain, expected, got);
  const records = got.filter((r) => startsWith(r, 'v=spf1'));
  const base = { name: domain, found: records.join(' | ') };
  if (records.length === 0) return { ...base, status: 'missing', expected, reason: 'no SPF record' };
  if (records.length > 1)
    return { ...base, status: 'wrong', expected, reason: 'more than one SPF record (receivers then ignore them all)' };
  const terms = records[0].trim().split(/\s+/);
  if (terms.some((t) => t.toLowerCase().replace(/^\+/, '') === want))
    return { ...base, status: 'ok', expected: records[0], reason: '' };
  // Keep what the domain has, with the platform's mechanism before its `all`.
  const all = terms.findIndex((t) => /^[+~?-]?all$/i.test(t));
  const fixed = all < 0 ? [...terms, o.spfInclude] : [...terms.slice(0, all), o.spfInclude, ...terms.slice(all)];
  return { ...base, status: 'wrong', expected: fixed.join(' '), reason: `the SPF record lacks ${o.spfInclude}` };
}

export async function checkDkim(dns: Dns, domain: string, o: CheckOptions): Promise<Check> {
  const name = `${o.dkimSelector}._domainkey.${domain}`;
  const expected = `v=DKIM1; k=rsa; p=${o.dkimPublicKey ?? "<the platform's public key>"}`;
  const got = await ask(dns, name);
  if (got instanceof Error) return failed(name, expected, got);
  const records = got.filter((r) => startsWith(r, 'v=dkim1') || tags(r).has('p'));
  const base = { name, found: records.join(' | ') };
  if (records.length === 0) return { ...base, status: 'missing', expected, reason: 'no DKIM key under the selector' };
  const key = tags(records[0]).get('p') ?? '';
  if (key === '') return { ...base, status: 'wrong', expected, reason: 'the DKIM key is empty (revoked)' };
  if (o.dkimPublicKey && key !== o.dkimPublicKey)
    return { ...base, status: 'wrong', expected, reason: "the DKIM key is not the platform's" };
  return { ...base, status: 'ok', expected: records[0], reason: '' };
}

export async function checkDmarc(dns: Dns, domain: string): Promise<Check> {
  const name = `_dmarc.${domain}`;
  const expected = `v=DMARC1; p=quarantine; rua=mailto:dmarc@${domain}`;
  const got = await ask(dns, name);
  if (got instanceof Error) return failed(name, expected, got);
  const records = got.filter((r) => startsWith(r, 'v=dmarc1'));
  const base = { name, found: records.join(' | ') };
  if (records.length === 0) return { ...base, status: 'missing', expected, reason: 'no DMARC record' };
  if (records.length > 1) return { ...base, status: 'wrong', expected, reason: 'more than one DMARC record' };
  const policy = tags(records[0]).get('p')?.toLowerCase() ?? '';
  if (!['none', 'quarantine', 'reject'].includes(policy))
    return { ...base, status: 'wrong', expected, reason: 'the DMARC record has no policy p=none|quarantine|reject' };
  return { ...base, status: 'ok', expected: records[0], reason: '' };
}

/** The company's token for a domain: 22 characters of HMAC-SHA256 (secret, companyID and domain). */
export function ownerToken(secret: Buffer, companyID: number, domain: string): string {
  return createHmac('sha256', secret).update(`${companyID}:${domain.toLowerCase()}`).digest('base64url').slice(0, 22);
}

export async function checkOwner(dns: Dns, domain: string, token: string): Promise<Check> {
  const name = `_podium.${domain}`;
  const expected = `podium-verification=${token}`;
  const got = await ask(dns, name);
  if (got instanceof Error) return failed(name, expected, got);
  const records = got.filter((r) => startsWith(r, 'podium-verification='));
  const base = { name, found: records.join(' | '), expected };
  if (records.length === 0) return { ...base, status: 'missing', reason: "no record of the company's" };
  // Several companies may share a domain: each publishes its own record there.
  if (records.some((r) => r.trim() === expected)) return { ...base, status: 'ok', reason: '' };
  return { ...base, status: 'wrong', reason: "the domain's records name other companies, not this one" };
}

/** The four checks of a domain, asked at once. */
export async function checkDomain(
  dns: Dns,
  domain: string,
  /** ownerToken: the company's (ownerToken()), what its _podium record must say. */
  o: CheckOptions & { ownerToken: string },
): Promise<DomainChecks> {
  const [owner, spf, dkim, dmarc] = await Promise.all([checkOwner(dns, domain, o.ownerToken), checkSpf(dns, domain, o), checkDkim(dns, domain, o), checkDmarc(dns, domain)]); // prettier-ignore
  return { owner, spf, dkim, dmarc };
}

export const allOk = (c: DomainChecks) =>
  c.owner.status === 'ok' && c.spf.status === 'ok' && c.dkim.status === 'ok' && c.dmarc.status === 'ok';
