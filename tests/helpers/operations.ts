import { expect } from 'vitest';
import type { CallOptions, Reply, TestPlatform } from './platform.ts';

/** Both call styles of spec §1.1; the operation suites run every case in each. */
export const STYLES = ['rpc', 'rest'] as const;
export type Style = (typeof STYLES)[number];

export interface Client {
  call(name: string, o?: CallOptions): Promise<Reply>;
  ok(name: string, o?: CallOptions): Promise<Record<string, string>[]>;
  /** A call that must fail with `status`; returns the `NNN message` line. */
  fail(name: string, o: CallOptions, status: number, message?: RegExp): Promise<Reply>;
}

/** p.call / p.ok bound to one call style. */
export function client(p: TestPlatform, style: Style): Client {
  return {
    call: (name, o = {}) => p.call(name, { style, ...o }),
    ok: (name, o = {}) => p.ok(name, { style, ...o }),
    async fail(name, o, status, message) {
      const r = await p.call(name, { style, ...o });
      expect(r.text, `${name} ${JSON.stringify(o.query ?? {})} ${JSON.stringify(o.body ?? {})}`).toMatch(
        new RegExp(`^${status} `),
      );
      expect(r.status).toBe(status);
      if (message) expect(r.text).toMatch(message);
      return r;
    },
  };
}

/** The ids of rows, in answer order. */
export const idsOf = (rows: Record<string, string>[], key: string) => rows.map((r) => r[key]);

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Wall-clock parts of a Unix time in an IANA zone, computed independently of the code under test. */
export function wallClock(unixSeconds: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(unixSeconds * 1000);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}
