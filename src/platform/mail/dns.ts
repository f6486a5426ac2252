import { Resolver } from 'node:dns/promises';

// The DNS questions of sender and address checks (issue 15): TXT records of a sender's domain (SPF,
// DKIM, DMARC) and MX records of an attendee's. One resolver the configuration can point at given
// servers (DNS_SERVERS), so tests ask a DNS server of their own on loopback and none touches the
// internet. Lookups are slow external work: only jobs make them, never a request.

export interface Dns {
  /** The TXT records of a name, each one string (its chunks joined); [] when the name has none. */
  txt(name: string): Promise<string[]>;
  /** The MX hosts of a name; [] when it has none. */
  mx(name: string): Promise<string[]>;
}

/** "The name has no such record": an answer, unlike a timeout or a refusal, which are failures. */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

export function dnsOf(config: { DNS_SERVERS?: readonly string[]; DNS_TIMEOUT_MS: number }): Dns {
  const resolver = new Resolver({ timeout: config.DNS_TIMEOUT_MS, tries: 2 });
  if (config.DNS_SERVERS?.length) resolver.setServers([...config.DNS_SERVERS]);
  const orNone = async <T>(ask: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await ask();
    } catch (err) {
      if (ABSENT.has((err as { code?: string }).code ?? '')) return [];
      throw err;
    }
  };
  return {
    txt: async (name) => (await orNone(() => resolver.resolveTxt(name))).map((chunks) => chunks.join('')),
    mx: async (name) => (await orNone(() => resolver.resolveMx(name))).map((r) => r.exchange),
  };
}
