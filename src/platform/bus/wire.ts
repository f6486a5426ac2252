import type { ChangeRow } from '../resources/change/log.ts';

// What travels between processes. Rows go as compact arrays so a PostgreSQL NOTIFY (at most 8000
// bytes of payload) carries about a hundred of them; a batch too big for the transport goes as the
// range of its ids instead, and each subscriber reads that range from the change log.

/** A batch of committed changes, or the id range of one too big to send whole. */
export type Message = { rows: ChangeRow[] } | { from: number; to: number };

type Packed = [number, number, string, string, number | null, number | null, number | null];

/** The message for `rows` (id order) as text of at most `limit` bytes. */
export function encode(rows: readonly ChangeRow[], limit: number): string {
  const packed: Packed[] = rows.map((r) => [r.changeID, r.at, r.operation, r.kind, r.companyID, r.eventID, r.objectID]);
  const whole = JSON.stringify({ r: packed });
  if (Buffer.byteLength(whole) <= limit) return whole;
  let from = Infinity;
  let to = -Infinity;
  for (const r of rows) {
    from = Math.min(from, r.changeID);
    to = Math.max(to, r.changeID);
  }
  return JSON.stringify({ f: from, t: to });
}

const isID = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isRef = (v: unknown): v is number | null => v === null || Number.isSafeInteger(v);

function unpack(p: unknown): ChangeRow | undefined {
  if (!Array.isArray(p) || p.length !== 7) return undefined;
  const [changeID, at, operation, kind, companyID, eventID, objectID]: unknown[] = p;
  if (!isID(changeID) || !Number.isSafeInteger(at) || typeof operation !== 'string' || typeof kind !== 'string')
    return undefined;
  if (!isRef(companyID) || !isRef(eventID) || !isRef(objectID)) return undefined;
  return { changeID, at: at as number, operation, kind, companyID, eventID, objectID };
}

/**
 * The message in `text`, or undefined when it is not one: anything that can publish on the channel
 * can send anything, and a bad message must cost a log line, never the process.
 */
export function decode(text: string): Message | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const v = value as { r?: unknown; f?: unknown; t?: unknown };
  if (Array.isArray(v.r)) {
    const rows = v.r.map(unpack);
    return rows.every((r) => r !== undefined) ? { rows: rows as ChangeRow[] } : undefined;
  }
  if (isID(v.f) && isID(v.t) && v.f <= v.t) return { from: v.f, to: v.t };
  return undefined;
}
