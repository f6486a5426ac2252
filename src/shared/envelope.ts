// The wire shapes of the platform API (spec §1.2), shared by the platform, the client and the site.
// Every scalar is a string: numbers as decimal text, booleans as "0"/"1", times as Unix seconds.

export type WireValue = string | WireRow[];
export interface WireRow {
  [field: string]: WireValue;
}

/** A successful answer. `total` is present only when the call asked for `paginated=1`. */
export interface Envelope<T extends WireRow = WireRow> {
  count: string;
  total?: string;
  data: T[];
}

/** A failed call's body is one plain line: `NNN message` (spec §7). */
export const ERROR_LINE = /^(\d{3}) (.+)$/;
