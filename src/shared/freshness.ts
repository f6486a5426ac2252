// Which kept things a change made stale, without walking them (issue 11): the platform's answer cache
// and the site's page and data caches keep an entry with the scope it depends on and the mark taken
// when the read that made it began; `fresh(scope, mark)` answers whether no change of that scope came
// since. Each change moves a local counter on and notes it against its event and company, so a change
// to one event leaves every other event's entries alone, and a read that began before a change can
// never be kept past it (its mark is older than the change). A local counter rather than the log's
// change ids: ids from different transactions may commit out of order.

/** What a kept thing depends on: one event (and its company, when known), one company, or anything. */
export interface Scope {
  readonly eventID?: number;
  readonly companyID?: number;
}

/** A change as freshness needs it: where it happened (null: not said, or not to be told). */
export interface ChangeScope {
  readonly eventID: number | null;
  readonly companyID: number | null;
}

export class Freshness {
  #seq = 0;
  /** The counter when each event, each company last changed. */
  readonly #events = new Map<number, number>();
  readonly #companies = new Map<number, number>();
  /** The counter when each company last had a change of its own (no event named), and when any did. */
  readonly #companyOwn = new Map<number, number>();
  #companyWide = 0;
  #any = 0;
  /** The counter when everything last went stale. */
  #all = 0;

  /** Where a read begins: what it makes is fresh only against this mark. */
  mark(): number {
    return this.#seq;
  }

  /** A committed change. One of no company and no event (a person's own profile) changes nothing kept. */
  apply(change: ChangeScope): void {
    if (change.eventID === null && change.companyID === null) return;
    const seq = ++this.#seq;
    this.#any = seq;
    if (change.eventID !== null) this.#events.set(change.eventID, seq);
    if (change.companyID !== null) this.#companies.set(change.companyID, seq);
    // A company's own change (its name, colours, tags — or an event it does not name) may show in any
    // of its events: entries that know their company check that company's, the others any company's.
    if (change.eventID === null) {
      this.#companyWide = seq;
      if (change.companyID !== null) this.#companyOwn.set(change.companyID, seq);
    }
  }

  /** Every kept thing is stale (after a gap in the changes: some may be missing). */
  applyAll(): void {
    this.#all = ++this.#seq;
  }

  fresh(scope: Scope, mark: number): boolean {
    if (mark < this.#all) return false;
    if (scope.eventID !== undefined) {
      const own = scope.companyID !== undefined ? (this.#companyOwn.get(scope.companyID) ?? 0) : this.#companyWide;
      return mark >= (this.#events.get(scope.eventID) ?? 0) && mark >= own;
    }
    if (scope.companyID !== undefined) return mark >= (this.#companies.get(scope.companyID) ?? 0);
    return mark >= this.#any;
  }
}
