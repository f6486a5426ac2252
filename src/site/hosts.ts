// Which site a Host header asks for: the platform's own site (/{company}/{event}/…), one event's site
// on its custom domain (spec §1.6: the event's `cname`), or nothing (the error page). Custom domains are
// looked up with event.get?cname= — one indexed lookup in the platform's store (cname is unique), never
// a call to the domain itself — for the visitor who asked (the platform counts it against their
// allowance, not the site's), and remembered: hits for POSITIVE_TTL_MS, misses for NEGATIVE_TTL_MS.
//
// Under a flood of made-up names: each name costs one lookup per NEGATIVE_TTL_MS at most, concurrent
// requests for one name share one lookup, at most MAX_PENDING lookups are in flight (more names wait
// for none: they are answered "busy"), and memory is bounded (misses and hits in separate maps, so
// misses never push a configured domain out). A configured domain whose entry expired keeps being
// served from it while the platform cannot answer (down, or the visitor over their limit) for up to
// STALE_MS. A change of an event's domain (forget) takes effect at once in this process; elsewhere the
// TTLs bound how long the old answer is served.

import { isIP } from 'node:net';
import { LRUCache } from 'lru-cache';
import { isPodiumError, PodiumError, type PodiumClient } from '../client/index.ts';
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

/** What changed (the platform's listener, in `podium start`): an event, or every event of a company. */
export interface DomainChange {
  eventID?: number;
  companyID?: number;
  /** The event's custom domain after the change ('' when it has none). */
  cname?: string;
}

export const POSITIVE_TTL_MS = 30_000;
export const NEGATIVE_TTL_MS = 10_000;
/** How long an expired hit is still served when the platform cannot answer its re-lookup. */
export const STALE_MS = 3_600_000;
/** After a failed re-lookup, how long the stale hit is served before the next try. */
const RETRY_MS = 5_000;

export interface HostResolverOptions {
  /** Most misses remembered (default 10000), and most hits (default 10000). */
  maxEntries?: number;
  /** Most lookups in flight at once (default 64). */
  maxPending?: number;
  now?: () => number;
}

interface Hit {
  site: CnameSite;
  /** Served without asking until then… */
  fresh: number;
  /** …and, when asking fails, until then. */
  stale: number;
}

export class HostResolver {
  readonly #client: PodiumClient;
  readonly #own: ReadonlySet<string>;
  readonly #hits: LRUCache<string, Hit>;
  /** Misses: host → until when it is known not to be a configured domain. */
  readonly #misses: LRUCache<string, number>;
  readonly #pending = new Map<string, Promise<HostSite>>();
  readonly #maxPending: number;
  readonly #now: () => number;
  /** Bumped by every forget: a lookup that started before one does not store its answer. */
  #generation = 0;

  /** `ownHosts`: the platform's own host names (SITE_URL's and SITE_HOSTS). */
  constructor(client: PodiumClient, ownHosts: Iterable<string>, options: HostResolverOptions = {}) {
    this.#client = client;
    this.#own = new Set([...ownHosts].map((h) => normalizeHostname(h)).filter((h): h is string => h !== undefined));
    this.#hits = new LRUCache({ max: options.maxEntries ?? 10_000 });
    this.#misses = new LRUCache({ max: options.maxEntries ?? 10_000 });
    this.#maxPending = options.maxPending ?? 64;
    this.#now = options.now ?? Date.now;
  }

  isOwn(host: string): boolean {
    return this.#own.has(host);
  }

  /** Entries held (hits and misses), for tests and metrics. */
  get size(): number {
    return this.#hits.size + this.#misses.size;
  }

  /**
   * What `host` (already normalized by hostOf) serves; `visitor` is who asked, whose allowance at the
   * platform a lookup spends. Platform errors other than 404 are thrown (a 429 as is; 503 when too many
   * lookups are in flight), unless an expired hit can stand in.
   */
  resolve(host: string, visitor?: string): HostSite | Promise<HostSite> {
    if (this.#own.has(host)) return PLATFORM;
    // IP literals and single-label names cannot be an event's domain.
    if (!host.includes('.') || isIP(host) !== 0) return UNKNOWN;
    const now = this.#now();
    const hit = this.#hits.get(host);
    if (hit && hit.fresh > now) return hit.site;
    const miss = this.#misses.get(host);
    if (miss !== undefined) {
      if (miss > now) return UNKNOWN;
      this.#misses.delete(host);
    }
    const pending = this.#pending.get(host);
    if (pending) return pending;
    if (this.#pending.size >= this.#maxPending) {
      if (hit && hit.stale > now) return hit.site;
      return Promise.reject(new PodiumError(503, 'too many domain lookups at once', 'event.get', 1));
    }
    const p = this.#lookup(host, visitor, hit).finally(() => {
      if (this.#pending.get(host) === p) this.#pending.delete(host);
    });
    this.#pending.set(host, p);
    return p;
  }

  async #lookup(host: string, visitor: string | undefined, previous: Hit | undefined): Promise<HostSite> {
    const generation = this.#generation;
    const call = { clientIp: visitor, fresh: true };
    let site: CnameSite;
    try {
      const event = await this.#client.eventGet({ cname: host }, undefined, call);
      const company = await this.#client.companyGet({ companyID: Number(event.companyID) }, call);
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
      if (isPodiumError(err) && (err.status === 404 || err.status === 400)) {
        if (generation === this.#generation) {
          this.#hits.delete(host);
          this.#misses.set(host, this.#now() + NEGATIVE_TTL_MS);
        }
        return UNKNOWN;
      }
      const now = this.#now();
      if (previous && previous.stale > now && generation === this.#generation) {
        previous.fresh = now + RETRY_MS;
        return previous.site;
      }
      throw err;
    }
    if (generation === this.#generation) {
      const now = this.#now();
      this.#hits.set(host, { site, fresh: now + POSITIVE_TTL_MS, stale: now + STALE_MS });
    }
    return site;
  }

  /**
   * Forgets what a change makes wrong: the domains of the event (or of the company's events) and the
   * event's new domain, whatever was known of it; lookups in flight are not stored.
   */
  forget(change: DomainChange): void {
    this.#generation++;
    this.#pending.clear();
    const gone = [...this.#hits.entries()].filter(
      ([, hit]) => hit.site.eventID === change.eventID || hit.site.companyID === change.companyID,
    );
    for (const [host] of gone) this.#hits.delete(host);
    const cname = change.cname ? normalizeHostname(change.cname) : undefined;
    if (cname) {
      this.#hits.delete(cname);
      this.#misses.delete(cname);
    }
  }

  /** Forgets everything known about custom domains (tests; an operator's reload). */
  clear(): void {
    this.#generation++;
    this.#pending.clear();
    this.#hits.clear();
    this.#misses.clear();
  }
}

const PLATFORM: HostSite = Object.freeze({ kind: 'platform' });
const UNKNOWN: HostSite = Object.freeze({ kind: 'unknown' });
