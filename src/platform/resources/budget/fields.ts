import { z } from 'zod';
import { editKey, type EditKey } from '../../edit.ts';
import { nonBlank, text, timestamp } from '../../schemas.ts';

// The expense (spec §2.6 Budget), declared once: the create parameters and the edit keys read these.

export const BUDGET_TYPES = ['raw', 'totalLodging', 'totalFlight', 'totalShuttle'] as const;
export type BudgetType = (typeof BUDGET_TYPES)[number];

/** Largest price: 12 digits before the point (under a trillion), so every sum stays exact. */
const PRICE_DIGITS = 12;
const PRICE = new RegExp(`^(\\d{1,${PRICE_DIGITS}})(?:\\.(\\d{1,2}))?$`);

/**
 * A price as typed (`1234.5`, `1234.50`, `0`) → minor units (123450). Decimal text, never a float:
 * `0.1 + 0.2` is 30 cents. Negative, exponent, thousands separators, commas and more than two
 * decimals are refused with one line saying what is accepted.
 */
export const price = z
  .string()
  .refine((v) => !v.trim().startsWith('-'), 'cannot be negative')
  .refine(
    (v) => PRICE.test(v),
    `must be a decimal number such as 1234.50 (digits, at most ${PRICE_DIGITS} before the point and 2 after; no signs, commas or spaces)`,
  )
  .transform((v) => {
    const [, units, cents = ''] = PRICE.exec(v)!;
    return Number(units) * 100 + Number(cents.padEnd(2, '0'));
  });

/** Minor units → `1234.50` (a bigint or a decimal string for sums, which may exceed 2^53 on paper). */
export function formatPrice(minor: number | bigint | string): string {
  const n = BigInt(minor);
  const sign = n < 0n ? '-' : '';
  const abs = n < 0n ? -n : n;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

export const budgetType = z.enum(BUDGET_TYPES, `must be one of ${BUDGET_TYPES.join(', ')}`);

export const title = nonBlank(200);
export const description = text(5000);
export const category = text(100);
export const supplier = text(200);
export const status = text(60);
export const date = timestamp;

/** budget.edit's keys (spec §2.6): `type` is set at creation only. */
export const BUDGET_EDIT_KEYS: Readonly<Record<string, EditKey>> = {
  title: editKey(title),
  description: editKey(description, { clear: '' }),
  category: editKey(category, { clear: '' }),
  supplier: editKey(supplier, { clear: '' }),
  status: editKey(status, { clear: '' }),
  price: editKey(price),
  date: editKey(date),
};
