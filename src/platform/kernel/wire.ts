import type { WireRow, WireValue } from '../../shared/envelope.ts';

// Rows from the store become wire rows here, once, on the way out: this is the hot path of every
// read, so it is a plain loop with typeof checks rather than a schema.

export function toWireValue(v: unknown): WireValue {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'bigint':
      return String(v);
    case 'boolean':
      return v ? '1' : '0';
    case 'object':
      if (v === null) return '';
      if (Array.isArray(v)) return v.map(toWireRow);
      if (v instanceof Date) return String(Math.floor(v.getTime() / 1000));
      return [toWireRow(v as Record<string, unknown>)];
    default:
      return '';
  }
}

export function toWireRow(row: Record<string, unknown>): WireRow {
  const out: WireRow = {};
  for (const key in row) {
    if (key === 'password' || key.endsWith('Hash')) continue; // secrets never leave, whatever a query selected
    out[key] = toWireValue(row[key]);
  }
  return out;
}

/** The envelope as JSON text, `count` = data.length; `total` only when asked for. */
export function envelope(rows: readonly Record<string, unknown>[], total?: number): string {
  const data = rows.map(toWireRow);
  return JSON.stringify(
    total === undefined
      ? { count: String(data.length), data }
      : { count: String(data.length), total: String(total), data },
  );
}

/**
 * Text past this many characters goes to the socket encoded: a Buffer is written as it is (with the
 * head in one writev), where text is scanned once for its byte length and again to encode it on
 * every write. Shorter text is cheaper as text: Node writes head and body as one string.
 */
const ENCODE_FROM = 8 * 1024;

/** An answer's body as it is cheapest to send, encoded once when long (see ENCODE_FROM). */
export const encodedBody = (text: string): string | Buffer => (text.length < ENCODE_FROM ? text : Buffer.from(text));
