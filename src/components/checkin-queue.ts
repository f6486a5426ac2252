// The check-in page's offline queue: every scan is written here (IndexedDB, this site's origin) before
// it is sent, and deleted once the platform answered it, so a scan made without a connection — or whose
// answer was lost — is sent again later with the same nonce (the platform answers a nonce it knows with
// its first answer: nothing is counted twice). Where IndexedDB cannot be opened (a private window of
// some browsers) the queue lives in memory for the page's life.

export interface QueuedScan {
  /** The device's id of the scan (checklog.checkIn's nonce), the record's key. */
  nonce: string;
  /** The event's id: one phone may scan at several events' pages. */
  event: string;
  code: string;
  /** The door it was scanned at: 0 (or absent, in scans queued before doors) the entrance, else a session's id. */
  door?: number;
  /** When it was scanned (Unix seconds, the phone's clock). */
  date: number;
  /** Milliseconds, for the order of sending. */
  at: number;
}

const DB = 'podium-checkin';
const STORE = 'scans';

export class ScanQueue {
  #db: Promise<IDBDatabase | undefined>;
  readonly #memory = new Map<string, QueuedScan>();

  readonly event: string;

  constructor(event: string) {
    this.event = event;
    this.#db = new Promise<IDBDatabase | undefined>((resolve) => {
      try {
        const open = indexedDB.open(DB, 1);
        open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: 'nonce' });
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => resolve(undefined);
      } catch {
        resolve(undefined);
      }
    });
  }

  async #run<T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>): Promise<T | undefined> {
    const db = await this.#db;
    if (!db) return undefined;
    return new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = op(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB'));
    });
  }

  async add(scan: QueuedScan): Promise<void> {
    if ((await this.#db) === undefined) this.#memory.set(scan.nonce, scan);
    else await this.#run('readwrite', (s) => s.put(scan));
  }

  async remove(nonce: string): Promise<void> {
    if ((await this.#db) === undefined) this.#memory.delete(nonce);
    else await this.#run('readwrite', (s) => s.delete(nonce));
  }

  /** This event's waiting scans, oldest first. */
  async list(): Promise<QueuedScan[]> {
    const all = (await this.#db) === undefined ? [...this.#memory.values()] : ((await this.#run('readonly', (s) => s.getAll())) as QueuedScan[]); // prettier-ignore
    return all.filter((s) => s.event === this.event).sort((a, b) => a.at - b.at);
  }
}

/** A new nonce: 128 random bits as 32 hex digits (getRandomValues works on plain http too, randomUUID not). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
