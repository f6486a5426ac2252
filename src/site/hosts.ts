// Which site a Host header asks for: the platform's own site (/{company}/{event}/…), one event's site
// on its custom domain (spec §1.6: the event's `cname`), or nothing (the error page). Custom domains are
// looked up with event.get?cname= — one indexed lookup in the platform's store (cname is unique), never
// a call to the domain itself — and remembered for a short while, the misses too, so a flood of unknown
// hosts costs one small lookup each per NEGATIVE_TTL_MS at most.

import { isPodiumError, type PodiumClient } from '../client/index.ts';
import { normalizeHostname } from './net.ts';

/** The event behind a custom domain, and what its pages need to route. */
export interface CnameSite {
  kind: 'event';
  cname: string;
  eventID: number;
  companyID: number;
  nickname: string;
  namespace: string;
}

export type HostSite = { kind: 'platform' } | CnameSite | { kind: 'unknown' };

export const POSITIVE_TTL_MS = 30_000;
export const NEGATIVE_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  site: HostSite;
  expires: number;
}

export class HostResolver {
  readonly #client: PodiumClient;
  readonly #own: ReadonlySet<string>;
  readonly #entries = new Map<string, Entry>();
  readonly #pending = new Map<string, Promise<HostSite>>();

  /** `ownHosts`: the platform's own host names (SITE_URL's and SITE_HOSTS). */
  constructor(client: PodiumClient, ownHosts: Iterable<string>) {
    this.#client = client;
    this.#own = new Set([...ownHosts].map((h) => normalizeHostname(h)).filter((h): h is string => h !== undefined));
  }

  isOwn(host: string): boolean {
    return this.#own.has(host);
  }

  /** What `host` (already normalized by hostOf) serves. Platform errors other than 404 are thrown. */
  resolve(host: string): HostSite | Promise<HostSite> {
    if (this.#own.has(host)) return PLATFORM;
    const now = Date.now();
    const hit = this.#entries.get(host);
    if (hit && hit.expires > now) return hit.site;
    let p = this.#pending.get(host);
    if (!p) {
      p = this.#lookup(host).finally(() => this.#pending.delete(host));
      this.#pending.set(host, p);
    }
    return p;
  }

  async #lookup(host: string): Promise<HostSite> {
    let site: HostSite = UNKNOWN;
    // IP literals and single-label names cannot be an event's domain.
    if (host.includes('.') && !/^[\d.]+$/.test(host) && !host.includes(':')) {
      try {
        const event = await this.#client.eventGet({ cname: host });
        const company = await this.#client.companyGet({ companyID: Number(event.companyID) });
        site = {
          kind: 'event',
          cname: host,
          eventID: Number(event.eventID),
          companyID: Number(event.companyID),
          nickname: event.nickname,
          namespace: company.namespace,
        };
      } catch (err) {
        // 404: not a configured domain; 400: a name the platform refuses as a hostname.
        if (!(isPodiumError(err) && (err.status === 404 || err.status === 400))) throw err;
      }
    }
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(host, {
      site,
      expires: Date.now() + (site.kind === 'unknown' ? NEGATIVE_TTL_MS : POSITIVE_TTL_MS),
    });
    return site;
  }

  /** Forgets what is known about custom domains (tests; an operator's reload). */
  clear(): void {
    this.#entries.clear();
  }
}

const PLATFORM: HostSite = Object.freeze({ kind: 'platform' });
const UNKNOWN: HostSite = Object.freeze({ kind: 'unknown' });
